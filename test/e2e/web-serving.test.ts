/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser and uses its types.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/modules/web/web.routes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { startServer, type ServerProcess } from '../helpers/process.js';
import { ensureWebBuilt } from './browser.js';

// One real server process on a fresh SQLite database for the whole file.
let server: ServerProcess;
let database: TestDatabase;
let base: string;

beforeAll(async () => {
  ensureWebBuilt();
  database = await createTestDatabase('sqlite');
  server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'info' });
  base = server.baseUrl;
}, 120_000);

afterAll(async () => {
  await server.stop();
  await database.drop();
});

describe('serving the web app', () => {
  it('should answer browsers at / with the shell, revalidated on every load', async () => {
    const response = await fetch(`${base}/`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('vary')).toMatch(/accept/i);
    const html = await response.text();
    expect(html).toMatch(/<div id="app">/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();

    const asset = await fetch(`${base}${script ?? ''}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('should leave / to data clients and keep machine paths and unknown API paths as they were', async () => {
    const data = await fetch(`${base}/`, { headers: { accept: 'application/json' } });
    expect(data.headers.get('content-type')).toMatch(/^application\/json/);
    // A client that takes HTML but prefers JSON gets JSON; one that prefers HTML, the page;
    // between equal preferences, the type named first.
    for (const [accept, type] of [
      ['application/json, text/html;q=0.9', /^application\/json/],
      ['application/json, text/html', /^application\/json/],
      ['text/html, application/json', /^text\/html/],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', /^text\/html/],
      ['text/html;q=0', /^application\/json/],
      ['application/json;q=0.5, text/html', /^text\/html/],
    ] as const) {
      const answer = await fetch(`${base}/`, { headers: { accept } });
      expect(answer.headers.get('content-type'), accept).toMatch(type);
    }

    const unknownApi = await fetch(`${base}/api/nowhere`, { headers: { accept: 'text/html' } });
    expect(unknownApi.status).toBe(404);
    expect(await unknownApi.json()).toMatchObject({ success: false, code: 'not_found' });

    const missingAsset = await fetch(`${base}/assets/missing-0000.js`);
    expect(missingAsset.status).toBe(404);
    // A dotfile left among the assets is not served.
    const dotfile = join(WEB_DIST, 'assets', `.probe-${process.pid}`);
    writeFileSync(dotfile, 'not for the public');
    try {
      expect((await fetch(`${base}/assets/.probe-${process.pid}`)).status).toBe(404);
    } finally {
      rmSync(dotfile, { force: true });
    }

    expect((await fetch(`${base}/openapi.json`)).headers.get('content-type')).toMatch(/json/);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/docs/`)).status).toBe(200);
  });

  it('should answer every client-side route with the shell so reloads and links work', async () => {
    for (const path of [
      '/catalog',
      '/catalog/',
      '/catalog/langchain',
      '/requests/new',
      '/requests/mine',
      '/play',
      '/play/negotiations',
      '/play/negotiations/x',
      '/play/account',
      '/leaderboard',
    ]) {
      const response = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toMatch(/<div id="app">/);
    }
  });

  it('should give browsers the app with status 404 at unknown paths, and programs JSON', async () => {
    for (const path of ['/nope', '/leaderboard/x', '/catalog/a/b', '/play/nowhere']) {
      const page = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await page.text(), path).toMatch(/<div id="app">/);

      const data = await fetch(`${base}${path}`, { headers: { accept: 'application/json' } });
      expect(data.status, path).toBe(404);
      expect(await data.json(), path).toMatchObject({ success: false, code: 'not_found' });
    }
    // Machine paths stay JSON (or a plain 404) even for a browser.
    const api = await fetch(`${base}/api/nope`, { headers: { accept: 'text/html' } });
    expect(api.headers.get('content-type')).toMatch(/json/);
    const post = await fetch(`${base}/nope`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(post.headers.get('content-type')).toMatch(/json/);
  });

  it('should give browsers the app at a malformed address of a page, and programs a 400', async () => {
    const page = await fetch(`${base}/catalog/%E0%A4%A`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(await page.text()).toMatch(/<div id="app">/);
    const data = await fetch(`${base}/catalog/%E0%A4%A`);
    expect(data.status).toBe(400);
    expect(await data.json()).toMatchObject({ success: false, code: 'validation_error' });
    const api = await fetch(`${base}/api/catalog/%E0%A4%A`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(400);
    expect(api.headers.get('content-type')).toMatch(/json/);
    // An address too long to route (a mangled link): browsers get the app, programs a 414.
    const long = `${base}/catalog/${'a'.repeat(600)}`;
    const longPage = await fetch(long, { headers: { accept: 'text/html' } });
    expect(await longPage.text()).toMatch(/<div id="app">/);
    const longData = await fetch(long);
    expect(longData.status).toBe(414);
    expect(await longData.json()).toMatchObject({ success: false, code: 'uri_too_long' });
    // A page's query is the app's to read: a stray % there does not keep the app away.
    const typed = await fetch(`${base}/catalog?q=100%`, { headers: { accept: 'text/html' } });
    expect(typed.status).toBe(200);
    expect(await typed.text()).toMatch(/<div id="app">/);
  });
});
