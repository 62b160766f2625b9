import { describe, expect, it } from 'vitest';
import { clientOf } from '../../src/http/client-address.js';
import { createTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

describe('the client a request is counted as', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:85a3:0001:0000:8a2e:0370:7334', '2001:db8:85a3:1::/64'],
    ['2001:db8:85a3:1::1', '2001:db8:85a3:1::/64'],
    ['2001:DB8:85A3:1:ffff::2', '2001:db8:85a3:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('should count %s as %s', (ip, client) => {
    expect(clientOf(ip)).toBe(client);
  });
});

describe.each(testDialects)('per-address limits over IPv6 (%s)', (dialect) => {
  it('should count every address of one /64 as one client', async () => {
    const t = await createTestApp(dialect, { REGISTRATION_RATE_LIMIT_PER_HOUR: '2' });
    try {
      const statuses = [];
      for (const host of ['1', '2', '3']) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/players',
          remoteAddress: `2001:db8:1:2::${host}`,
          payload: { username: `six${host}`, email: `six${host}@example.com` },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([201, 201, 429]);
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/api/players',
        remoteAddress: '2001:db8:1:3::1',
        payload: { username: 'sixother', email: 'sixother@example.com' },
      });
      expect(elsewhere.statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
