import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource } from '../../scripts/api-types.js';

describe('the web app’s API types', () => {
  it('should match the OpenAPI document the service serves now (run `npm run gen:api` when not)', async () => {
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    const fresh = await apiTypesSource();
    expect(committed === fresh, 'web/src/api-schema.ts is stale: run `npm run gen:api`').toBe(true);
    expect(fresh).toMatch(/"\/api\/haggle\/offer": \{/);
  });
});
