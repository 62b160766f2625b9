import { describe, expect, it } from 'vitest';
import { withoutTrailingSlashes } from '../../src/http/paths.js';
import { matchPage } from '../../src/modules/web/web.pages.js';
import { createTestApp } from '../helpers/app.js';

describe('paths without their trailing slashes', () => {
  it.each([
    ['/api/players/', '/api/players'],
    ['/api/players///', '/api/players'],
    ['/api/players', '/api/players'],
    ['/', '/'],
    ['//', '/'],
    ['', ''],
  ])('%s → %s', (path, trimmed) => {
    expect(withoutTrailingSlashes(path)).toBe(trimmed);
  });

  it('should leave a path of many slashes that ends in another character as it is', () => {
    const path = `${'/'.repeat(16_000)}a`;
    expect(withoutTrailingSlashes(path)).toBe(path);
    expect(withoutTrailingSlashes(`${path}//`)).toBe(path);
    expect(matchPage(path)).toBeNull();
    expect(matchPage('/catalog/')).toEqual({ page: 'catalog', params: {} });
  });

  it('should answer such a path 404 as JSON, and a browser with the app', async () => {
    const t = await createTestApp('sqlite');
    try {
      const url = `${'/'.repeat(15_000)}a`;
      const json = await t.app.inject({ method: 'GET', url });
      expect(json.statusCode).toBe(404);
      expect(json.json()).toMatchObject({ success: false, code: 'not_found' });
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    } finally {
      await t.close();
    }
  });
});
