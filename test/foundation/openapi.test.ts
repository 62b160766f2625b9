import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('should validate as OpenAPI 3.1 with version 0.3.0', async () => {
    const response = await t.app.inject('/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; info: { version: string } }>();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('0.3.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('should describe the error envelope with every error code', async () => {
    const document = (await t.app.inject('/openapi.json')).json<{
      components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> };
    }>();
    expect(document.components.schemas.Error?.properties.code.enum).toContain(
      'storage_unavailable',
    );
  });

  it('should serve the reference page from local files', async () => {
    const page = await t.app.inject('/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
  });
});
