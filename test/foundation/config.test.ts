import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('should take the defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.sqliteBusyTimeoutMs).toBe(5000);
    expect(config.databasePoolSize).toBe(10);
    expect(config.limits.gameRequestsPerMinute).toBe(300);
    expect(config.keepAliveTimeoutSeconds).toBe(72);
  });

  it('should refuse a sqlite:// URL that would read its first directory as a host', () => {
    for (const url of ['sqlite://./data/x.db', 'sqlite://data/x.db']) {
      expect(() => loadConfig({ DATABASE_URL: url }), url).toThrow(/is ambiguous/);
    }
    expect(loadConfig({ DATABASE_URL: 'sqlite:///var/x.db' }).database).toEqual({
      dialect: 'sqlite',
      path: '/var/x.db',
    });
  });

  it('should report every bad variable at once, each with its allowed range', () => {
    const load = () =>
      loadConfig({
        PORT: '70000',
        LOG_LEVEL: 'loud',
        SQLITE_BUSY_TIMEOUT_MS: '-1',
        DATABASE_POOL_SIZE: '0',
        DATABASE_STATEMENT_TIMEOUT_MS: '600001',
        GAME_RATE_LIMIT_PER_MINUTE: '0',
        REDIS_URL: 'http://cache',
        SELLER_SECRET: 'short',
        DATABASE_URL: 'mysql://x',
        CORS_ORIGINS: 'app.example.com',
      });
    expect(load).toThrow(ConfigError);
    let message = '';
    try {
      load();
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).toHaveLength(10);
    expect(message).toContain('PORT must be a whole number from 0 to 65535, got "70000"');
    expect(message).toContain('SQLITE_BUSY_TIMEOUT_MS must be a whole number from 0 to 600000');
    expect(message).toContain('DATABASE_POOL_SIZE must be a whole number from 1 to 1000');
    expect(message).toContain(
      'DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 0 to 600000',
    );
    expect(message).toContain('GAME_RATE_LIMIT_PER_MINUTE must be a whole number from 1 to');
    for (const name of [
      'LOG_LEVEL',
      'REDIS_URL',
      'SELLER_SECRET',
      'DATABASE_URL',
      'CORS_ORIGINS',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('should not say back the password of a URL it refuses', () => {
    for (const env of [
      { REDIS_URL: 'http://admin:hunter2@cache:6379' },
      { PUBLIC_BASE_URL: 'ftp://user:hunter2@example.com/' },
      { REDIS_URL: 'redis//admin:hunter2@cache' },
      { REDIS_URL: 'http://admin:hunt/er2@cache' },
      { PUBLIC_BASE_URL: 'admin:hunter2@example.com' },
    ]) {
      let message = '';
      try {
        loadConfig(env);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, JSON.stringify(env)).toContain(Object.keys(env)[0] ?? '');
      expect(message, JSON.stringify(env)).not.toMatch(/hunter2|hunt\/er2/);
    }
  });
});
