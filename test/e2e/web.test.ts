/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser and uses its types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { startServer, type ServerProcess } from '../helpers/process.js';
import {
  CHROMIUM,
  auditPage,
  browserPresent,
  browserRequired,
  ensureWebBuilt,
  launchBrowser,
} from './browser.js';

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

    const unknownApi = await fetch(`${base}/api/nowhere`, { headers: { accept: 'text/html' } });
    expect(unknownApi.status).toBe(404);
    expect(await unknownApi.json()).toMatchObject({ success: false, code: 'not_found' });

    const missingAsset = await fetch(`${base}/assets/missing-0000.js`);
    expect(missingAsset.status).toBe(404);

    expect((await fetch(`${base}/openapi.json`)).headers.get('content-type')).toMatch(/json/);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/docs/`)).status).toBe(200);
  });

  it('should answer every client-side route with the shell so reloads and links work', async () => {
    for (const path of [
      '/catalog/langchain',
      '/requests/new',
      '/requests/mine',
      '/play',
      '/play/negotiations/x',
      '/leaderboard',
    ]) {
      const response = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toMatch(/<div id="app">/);
    }
  });
});

if (!browserPresent && !browserRequired) {
  process.stderr.write(
    `Skipping the browser journeys: no Chromium at ${CHROMIUM} (apt-get install chromium).\n`,
  );
}

describe.skipIf(!browserPresent && !browserRequired)('in Chromium', { timeout: 120_000 }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: Record<string, unknown[]> = {};

  /** Audits the current page (axe + screenshots at both widths) and records what fails. */
  const audit = async (name: string) => {
    const violations = await auditPage(page, name);
    if (violations.length > 0) problems[name] = violations;
  };

  beforeAll(async () => {
    if (!browserPresent) throw new Error(`E2E_REQUIRED=1 but there is no Chromium at ${CHROMIUM}.`);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, 60_000);

  afterAll(async () => {
    await browser.close();
  });

  it('search → listing → file a request → read it with the token → delete it', async () => {
    await page.goto(`${base}/`);
    await audit('catalog');
    await page.getByLabel('Search the catalog').fill('langchain');
    await page.getByRole('link', { name: 'LangChain', exact: true }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('LangChain');
    await expect.poll(() => page.getByRole('heading', { name: 'Provenance' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Authentication' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Limitations' }).count()).toBe(1);
    const sourceLinks = page.locator('section[aria-labelledby="provenance"] a[href^="https://"]');
    expect(await sourceLinks.count()).toBeGreaterThan(0);
    await audit('listing');

    await page.getByRole('link', { name: 'Catalog', exact: true }).click();
    const wish = 'zebra telepathy broker';
    await page.getByLabel('Search the catalog').fill(wish);
    await page.getByRole('link', { name: 'File a capability request' }).click();
    await expect.poll(() => page.getByLabel('What do you need?').inputValue()).toBe(wish);

    // The form mirrors the API's limits: too short is refused inline, before sending.
    await page.getByLabel('What do you need?').fill('too short');
    await page.getByRole('button', { name: 'File the request' }).click();
    await expect
      .poll(() => page.locator('#task-error').textContent())
      .toMatch(/at least 12 characters/);
    expect(await page.getByLabel('What do you need?').getAttribute('aria-invalid')).toBe('true');
    await audit('request-form-errors');

    await page
      .getByLabel('What do you need?')
      .fill('An MCP server that brokers zebra telepathy sessions.');
    await page.getByRole('button', { name: 'File the request' }).click();
    const token = (await page.locator('#receipt-token').textContent()) ?? '';
    expect(token).toMatch(/^rq_/);
    expect(await page.getByText('It is shown only once').count()).toBe(1);
    await page.getByRole('button', { name: 'Copy token' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await audit('request-receipt');

    await page.getByRole('button', { name: 'Open my request' }).click();
    await page.getByRole('button', { name: 'Read my request' }).click();
    await expect.poll(() => page.locator('#request-heading').textContent()).toMatch(/Received/);
    expect(await page.getByText('No answer yet.').count()).toBe(1);
    await audit('my-request');

    await page.getByRole('button', { name: 'Delete this request' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await expect.poll(() => page.getByText('deleted for good').count()).toBe(1);
    await page.getByRole('button', { name: 'Read my request' }).click();
    await expect.poll(() => page.getByText('No request matches this id and token').count()).toBe(1);
  });

  let apiKey = '';
  const username = `e2e_${Date.now().toString(36)}`;

  it('register → keep the key across a reload → haggle three offers → accept → leaderboard and transactions', async () => {
    await page.goto(`${base}/play`);
    await audit('play-signed-out');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('E-mail').fill(`${username}@example.com`);
    await page.getByRole('button', { name: 'Register' }).click();
    apiKey = (await page.locator('#api-key').textContent()) ?? '';
    expect(apiKey).toMatch(/^hg_[0-9a-f]{48}$/);
    await audit('play-key-shown');
    await page.getByRole('button', { name: 'I have saved it: start playing' }).click();
    await page.reload();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(new RegExp(`Playing as ${username}.*100\\.00 credits`));
    await audit('play-products');

    // The cheapest product in stock, so that every counter stays affordable.
    const products = (await (await fetch(`${base}/api/products?in_stock=true`)).json()) as {
      data: { id: string; name: string; market_price: number }[];
    };
    const cheapest = [...products.data].sort((a, b) => a.market_price - b.market_price);
    const target = cheapest[0];
    if (target === undefined) throw new Error('no product in stock');
    await page.getByRole('button', { name: `Haggle for ${target.name}` }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Haggling for ${target.name}`);
    expect(await page.locator('.bubble-seller').count()).toBe(1); // the greeting

    // More than the player has: the API refuses and its sentence appears at the field.
    await page.getByLabel('Your offer (credits)').fill('150');
    await page.getByRole('button', { name: 'Make offer' }).click();
    await expect.poll(() => page.locator('#offer-error').textContent()).toMatch(/credits/i);
    expect(await page.locator('#status').textContent()).toBe('Round 1 of 10');

    for (const [i, share] of [0.5, 0.52, 0.54].entries()) {
      await page.getByLabel('Your offer (credits)').fill((target.market_price * share).toFixed(2));
      await page.getByRole('button', { name: 'Make offer' }).click();
      await expect.poll(() => page.locator('#status').textContent()).toBe(`Round ${i + 2} of 10`);
    }
    expect(await page.locator('.bubble-player').count()).toBe(3);
    expect(await page.locator('.bubble-seller').count()).toBe(4);
    await audit('negotiation-active');

    await page.getByRole('button', { name: /^Accept / }).click();
    await expect
      .poll(() => page.locator('.deal').textContent())
      .toMatch(
        /You bought .* for [\d.]+, saving [\d.-]+ on the market price\. Your balance is now [\d.]+ credits\./,
      );
    await audit('negotiation-deal');

    await page.getByRole('link', { name: 'Leaderboard' }).first().click();
    await expect
      .poll(() => page.getByRole('rowheader', { name: `${username} (you)` }).count())
      .toBe(1);
    await audit('leaderboard');

    await page.getByRole('link', { name: 'My stats' }).click();
    await expect.poll(() => page.getByRole('rowheader', { name: target.name }).count()).toBe(1);
    await audit('account');

    await page.getByRole('link', { name: 'Negotiations' }).click();
    await expect.poll(() => page.getByRole('link', { name: target.name }).count()).toBe(1);
    await audit('negotiations');
  });

  it('shows a rejected and an expired negotiation as such', async () => {
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const post = async (path: string, body: object) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      return ((await response.json()) as { data: { id: string } & Record<string, unknown> }).data;
    };
    const me = (await (
      await fetch(`${base}/api/players?username=${username}`, { headers })
    ).json()) as { data: { id: string }[] };
    const playerId = me.data[0]?.id ?? '';
    const products = (
      (await (await fetch(`${base}/api/products?in_stock=true`)).json()) as {
        data: { id: string; market_price: number }[];
      }
    ).data;
    const [first, second] = products.slice(-2);
    if (first === undefined || second === undefined) throw new Error('not enough products');

    // Two insulting offers end a negotiation: rejected.
    const rejected = await post('/api/haggle/start', { player_id: playerId, product_id: first.id });
    for (let i = 0; i < 2; i++)
      await post('/api/haggle/offer', { session_id: rejected.id, offer_amount: 0.01 });
    await page.goto(`${base}/play/negotiations/${rejected.id}`);
    await expect.poll(() => page.locator('#status').textContent()).toBe('Status: rejected');
    expect(await page.getByText('The seller ended this negotiation').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Make offer' }).count()).toBe(0);
    await audit('negotiation-rejected');

    // Ten low, rising offers: the seller never reaches them and the negotiation expires.
    const expired = await post('/api/haggle/start', { player_id: playerId, product_id: second.id });
    for (let i = 0; i < 10; i++) {
      await post('/api/haggle/offer', {
        session_id: expired.id,
        offer_amount: Number((second.market_price * (0.45 + i / 100)).toFixed(2)),
      });
    }
    await page.goto(`${base}/play/negotiations/${expired.id}`);
    await expect.poll(() => page.locator('#status').textContent()).toBe('Status: expired');
    expect(await page.getByText('This negotiation expired').count()).toBe(1);
    await audit('negotiation-expired');
  });

  it('forgets the key on request, and signs in again with it', async () => {
    await page.goto(`${base}/play`);
    await page.getByRole('button', { name: 'Forget this key' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'New player' }).count()).toBe(1);
    await page.reload();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await page.getByRole('button', { name: 'Forget this key' }).count()).toBe(0);

    await page.getByLabel('API key (hg_…)').fill('hg_' + '0'.repeat(48));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('This key is not valid').count()).toBe(1);
    await page.getByLabel('API key (hg_…)').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(`Playing as ${username}`);
  });

  it('is usable with the keyboard alone: skip link first, then the navigation; forms in order', async () => {
    await page.goto(`${base}/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Bazaar');

    // At phone width, the request form in reading order, submitted with Enter: the error is
    // announced and focus goes to the field it is about.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${base}/requests/new`);
    const order: string[] = [];
    for (let i = 0; i < 20 && !order.includes('capability_id'); i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id ?? ''));
    }
    const fields = ['kind', 'task', 'contact', 'blocker', 'client', 'capability_id'];
    expect(order.filter((id) => fields.includes(id))).toEqual(fields);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('task');
    expect(await page.locator('#task-error').textContent()).toMatch(/at least 12 characters/);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto(`${base}/play/unknown-page`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Page not found');
    await audit('not-found');
  });

  it('has no serious or critical accessibility problems on any page at either width', () => {
    expect(problems).toEqual({});
  });
});
