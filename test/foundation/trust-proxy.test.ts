import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseTrustProxy } from '../../src/config.js';
import { createTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

describe('TRUST_PROXY', () => {
  it('should take true, false, or proxy addresses and CIDR ranges, and refuse anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7,::1,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['yes', '2', '10.0.0.0/33', 'proxy.local', '10.0.0.1/8/8']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'lb.internal' })).toThrow(/TRUST_PROXY must be/);
  });
});

describe.each(testDialects)('client addresses behind a proxy (%s)', (dialect) => {
  it('should count a client by the address its trusted proxy saw, whatever it claims', async () => {
    const t = await createTestApp(dialect, {
      TRUST_PROXY: '10.0.0.0/8',
      REGISTRATION_RATE_LIMIT_PER_HOUR: '2',
    });
    try {
      let n = 0;
      const register = (from: string, forwarded: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/players',
          remoteAddress: from,
          headers: { 'x-forwarded-for': forwarded },
          payload: { username: `proxied${++n}`, email: `proxied${n}@example.com` },
        });
      // Through the proxy: a client's own (spoofed) entries come before the address the proxy
      // appended, and change nothing.
      const through = [];
      for (const spoofed of ['10.1.1.1', '10.2.2.2', '10.3.3.3']) {
        through.push((await register('10.0.0.5', `${spoofed}, 203.0.113.9`)).statusCode);
      }
      expect(through).toEqual([201, 201, 429]);
      // Straight from a client that is no proxy, X-Forwarded-For is not believed.
      const direct = [];
      for (const spoofed of ['198.18.0.1', '198.18.0.2', '198.18.0.3']) {
        direct.push((await register('198.51.100.1', spoofed)).statusCode);
      }
      expect(direct).toEqual([201, 201, 429]);
    } finally {
      await t.close();
    }
  });
});
