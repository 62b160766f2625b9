import { BetterSqlite as BetterSqlite3 } from '../../src/db/better-sqlite3.js';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/db/sqlite-connection.js';

describe('SQLite statement cache', () => {
  it('should prepare each statement once however often it runs', () => {
    const database = new BetterSqlite3(':memory:');
    const prepared: string[] = [];
    const prepare = database.prepare.bind(database);
    database.prepare = (sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    };
    const cached = withStatementCache(database);
    const first = cached.prepare('select 1');
    for (let i = 0; i < 5; i++) {
      expect(cached.prepare('select 1')).toBe(first);
      cached.prepare('select 2');
    }
    expect(prepared).toEqual(['select 1', 'select 2']);
    cached.close();
  });

  it('should evict the least recently used statement when full', () => {
    const database = new BetterSqlite3(':memory:');
    const cached = withStatementCache(database);
    const kept = cached.prepare('select 0');
    for (let i = 1; i <= 600; i++) {
      cached.prepare(`select ${i}`);
      // Used all along, so never the oldest.
      expect(cached.prepare('select 0')).toBe(kept);
    }
    cached.close();
  });
});
