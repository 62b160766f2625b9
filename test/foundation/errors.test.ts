import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

describe.each(testDialects)('error envelope (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, (app) => {
      app.post(
        '/test/echo',
        {
          schema: {
            body: Type.Object({ name: Type.String({ minLength: 3 }), age: Type.Integer() }),
          },
        },
        (request) => ({ success: true, data: request.body }),
      );
      app.get('/test/boom', () => {
        throw new Error(
          'select * from players where api_key_hash = $1 failed at /src/secret.ts:12',
        );
      });
      app.get('/test/storage', () => {
        throw Object.assign(new Error('attempt to write a readonly database'), {
          code: 'SQLITE_READONLY',
        });
      });
      app.delete('/test/nobody', () => ({ success: true, data: { deleted: true } }));
      app.get('/test/app-error', () => {
        throw new AppError('out_of_stock', 'That product is out of stock.');
      });
    });
  });
  afterAll(() => t.close());

  describe('happy', () => {
    it('should answer the health checks', async () => {
      expect((await t.app.inject('/healthz')).json()).toEqual({
        success: true,
        data: { status: 'ok' },
      });
      const ready = await t.app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
    });

    it('should echo a request id on every response', async () => {
      const response = await t.app.inject({
        url: '/healthz',
        headers: { 'x-request-id': 'abc-123' },
      });
      expect(response.headers['x-request-id']).toBe('abc-123');
    });
  });

  describe('errors', () => {
    it('should answer an unknown route with 404 not_found', async () => {
      const response = await t.app.inject('/api/nothing-here');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        success: false,
        error: expect.any(String),
        code: 'not_found',
      });
    });

    it('should answer malformed JSON with 400 invalid_json', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "abc",',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'invalid_json' });
    });

    it('should drop a __proto__ key like any field an operation does not take', async () => {
      for (const payload of [
        '{"name": "abc", "age": 3, "__proto__": {"admin": true}}',
        '{"name": "abc", "age": 3, "constructor": {"prototype": {"admin": true}}}',
      ]) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/test/echo',
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode, payload).toBe(200);
        expect(response.json(), payload).toEqual({ success: true, data: { name: 'abc', age: 3 } });
      }
    });

    it('should take an empty body declared as JSON as no body, not as a syntax error', async () => {
      const headers = { 'content-type': 'application/json' };
      const none = await t.app.inject({ method: 'DELETE', url: '/test/nobody', headers });
      expect(none.statusCode).toBe(200);
      const needed = await t.app.inject({ method: 'POST', url: '/test/echo', headers });
      expect(needed.statusCode).toBe(400);
      expect(needed.json()).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'body', message: 'must be an object' }],
      });
    });

    it('should answer a body over 64 KiB with 413 payload_too_large', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(70 * 1024), age: 1 }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ success: false, code: 'payload_too_large' });
    });

    it('should answer a non-JSON body with 415 unsupported_media_type', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        headers: { 'content-type': 'text/plain' },
        payload: 'name=abc',
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ success: false, code: 'unsupported_media_type' });
    });

    it('should answer invalid fields with 400 validation_error and per-field details', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        payload: { name: 'ab' },
      });
      expect(response.statusCode).toBe(400);
      const body = response.json<{ code: string; details: { field: string }[] }>();
      expect(body.code).toBe('validation_error');
      expect(body.details.map((detail) => detail.field)).toContain('name');
    });

    it('should not coerce a JSON number into a string field', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/test/echo',
        payload: { name: 12345, age: 3 },
      });
      expect(response.statusCode).toBe(400);
    });

    it('should map a thrown AppError to its status and code', async () => {
      const response = await t.app.inject('/test/app-error');
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        error: 'That product is out of stock.',
        code: 'out_of_stock',
      });
    });

    it('should answer a storage failure with 503 storage_unavailable and Retry-After', async () => {
      const response = await t.app.inject('/test/storage');
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
      expect(response.json()).toMatchObject({ success: false, code: 'storage_unavailable' });
    });
  });

  describe('security', () => {
    it('should answer an unexpected failure with 500 and no internals, and log it with the request id', async () => {
      const response = await t.app.inject('/test/boom');
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        success: false,
        error: expect.any(String),
        code: 'internal_error',
      });
      expect(response.body).not.toMatch(/select|api_key|\.ts|stack/i);
      const requestId = response.headers['x-request-id'];
      expect(
        t.logs.some((line) => line.includes('"level":50') && line.includes(String(requestId))),
      ).toBe(true);
    });

    it('should never write the Authorization header to the logs', async () => {
      t.app.log.info(
        { req: { headers: { authorization: 'Bearer hg_' + 'a'.repeat(48) } } },
        'probe',
      );
      await t.app.inject({
        url: '/healthz',
        headers: { authorization: 'Bearer hg_' + 'b'.repeat(48) },
      });
      expect(t.logs.join('\n')).not.toMatch(/hg_[ab]{48}/);
    });
  });
});
