/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser and uses its types.
import { describe, expect, it } from 'vitest';
import { browserApp, skipBrowser } from './browser.js';

describe.skipIf(skipBrowser)(
  'the web app for people looking for a tool',
  { timeout: 120_000 },
  () => {
    const app = browserApp();

    it('should introduce both areas on the landing page and search from it', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/`);
      expect(await page.getByRole('heading', { name: 'The capability catalog' }).count()).toBe(1);
      expect(await page.getByRole('heading', { name: 'The haggling game' }).count()).toBe(1);
      await app.audit('home', { plainWords: true });
      await page.getByLabel('What do you need?').fill('langchain');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => page.url()).toMatch(/\/catalog\?q=langchain$/);
      await page.getByRole('link', { name: 'LangChain', exact: true }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('LangChain');
      expect(await page.getByRole('heading', { name: 'Provenance' }).count()).toBe(1);
      expect(await page.getByRole('heading', { name: 'Limitations' }).count()).toBe(1);
      // A library that asks for no credentials of its own says so, not that none are needed at
      // all (its notes name the providers' keys), and lists no "none" scheme.
      const auth = await page.locator('section[aria-labelledby="auth"]').textContent();
      expect(auth).toContain('It asks for no credentials of its own.');
      expect(auth).not.toMatch(/Schemes: none|No credentials are needed/);
      await app.audit('listing');
      // Opened directly (a shared link), it offers the catalog instead of results it never saw.
      await page.goto(page.url());
      await expect.poll(() => page.locator('h1').textContent()).toBe('LangChain');
      expect(await page.getByRole('link', { name: 'Back to the results' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Browse the catalog' }).count()).toBe(1);
    });

    it('should bring Back to the same results, "Show more" included, at the same place', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog`);
      await expect.poll(() => page.locator('.cards > li').count()).toBe(24);
      await page.getByRole('button', { name: 'Show more' }).click();
      await expect.poll(() => page.locator('.cards > li').count()).toBe(48);
      const target = page.locator('.cards > li h2 a').nth(40);
      const name = (await target.textContent()) ?? '';
      await target.scrollIntoViewIfNeeded();
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).toBeGreaterThan(1000);
      await target.click();
      await expect.poll(() => page.locator('h1').textContent()).toBe(name);
      // The link at the end of the listing, where a reader who read it all is.
      await page.getByRole('link', { name: 'Back to the results' }).last().click();
      await expect.poll(() => page.locator('.cards > li').count()).toBe(48);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 50);
      expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 50);
      // Focus is back on the listing's link, where the reader left, not on the heading far above.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(name);
      // The browser's own Back button works the same way.
      await page.locator('.cards > li h2 a').nth(40).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe(name);
      await page.goBack();
      await expect.poll(() => page.locator('.cards > li').count()).toBe(48);
    });

    it('should offer the way back to the results at the top of a listing too', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog?q=langchain`);
      await page.getByRole('link', { name: 'LangChain', exact: true }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('LangChain');
      const back = page.getByRole('link', { name: 'Back to the results' });
      expect(await back.count()).toBe(2);
      // The first link under the heading, not only one after the listing's last section.
      expect(await page.locator('main a').first().textContent()).toBe('Back to the results');
      await back.first().click();
      await expect.poll(() => page.url()).toMatch(/\/catalog\?q=langchain$/);
      // Focus is back on the listing's link, as with the link at the end.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe('LangChain');
    });

    it('should move focus to the first new listing after "Show more"', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog?kind=agent`);
      await expect.poll(() => page.locator('.cards > li').count()).toBe(24);
      await page.getByRole('button', { name: 'Show more' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.cards > li').count()).toBeGreaterThan(24);
      const first = await page.locator('.cards > li h2 a').nth(24).textContent();
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(first);
    });

    it('should not leave the last results under a search that failed, and offer to retry', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog`);
      await expect.poll(() => page.locator('.cards > li').count()).toBe(24);
      const failing = /\/api\/catalog\?/;
      try {
        await page.route(failing, (route) =>
          route.fulfill({
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '1' },
            body: JSON.stringify({ success: false, error: 'Slow down.', code: 'rate_limited' }),
          }),
        );
        await page.getByLabel('Describe what you need, or name a tool').fill('database');
        await expect
          .poll(() => page.locator('.alert-error').textContent())
          .toMatch(/Too many requests at once\. Try again in 1 second\./);
        expect(await page.locator('.cards > li').count()).toBe(0);
      } finally {
        // Even when a check failed: later tests share the page.
        await page.unroute(failing);
      }
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => page.locator('.cards > li').count()).toBeGreaterThan(0);
      expect(await page.locator('.alert-error').count()).toBe(0);
      // The button went with the alert: focus is in the search box, not lost.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');

      // A filter value from a mangled link is said to be the link's, not the reader's input.
      await page.goto(`${app.base()}/catalog?kind=bogus`);
      await expect
        .poll(() => page.locator('.alert-error').textContent())
        .toMatch(/This link asks for a kind the catalog does not know \(“bogus”\)/);
    });

    it('should read a listing again after a failure, but not one that does not exist', async () => {
      const page = app.page();
      const failing = /\/api\/catalog\/langchain$/;
      try {
        await page.route(failing, (route) =>
          route.fulfill({
            status: 500,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ success: false, error: 'Oops.', code: 'internal_error' }),
          }),
        );
        await page.goto(`${app.base()}/catalog/langchain`);
        await expect.poll(() => page.locator('h1').textContent()).toBe('Listing unavailable');
        expect(await page.locator('.alert-error').textContent()).toMatch(/on our side/);
      } finally {
        // Even when a check failed: later tests share the page.
        await page.unroute(failing);
      }
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('LangChain');
      expect(await page.locator('.alert-error').count()).toBe(0);
      // The button went with the alert: focus is on the page's heading, not lost.
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
      // Asking again for a listing that does not exist would find nothing more.
      await page.goto(`${app.base()}/catalog/no-such-listing`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Listing not found');
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    });

    it('should say when it corrected a search, and offer a request when nothing fits', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog?q=langchian`);
      await expect.poll(() => page.locator('.corrected').textContent()).toMatch(/langchain/i);
      expect(await page.locator('.corrected').textContent()).toMatch(/nothing matched “langchian”/);
      await app.audit('catalog-corrected');

      await page
        .getByLabel('Describe what you need, or name a tool')
        .fill('zebra telepathy broker');
      const ask = page.getByRole('link', { name: 'Ask for this capability' });
      await expect.poll(() => ask.getAttribute('href')).toMatch(/zebra/);
      await ask.click();
      await expect.poll(() => page.getByLabel('What do you need?').inputValue()).toMatch(/zebra/);
    });

    it('should offer to clear the filters that left nothing, keeping the words', async () => {
      const page = app.page();
      await page.goto(
        `${app.base()}/catalog?q=browser&kind=agent&license_kind=proprietary&category=database`,
      );
      await expect
        .poll(() => page.locator('.result-count').textContent())
        .toBe('No listing matches.');
      await page.getByRole('button', { name: 'Clear the filters' }).click();
      await expect.poll(() => page.locator('.cards > li').count()).toBeGreaterThan(0);
      expect(await page.getByLabel('Kind').inputValue()).toBe('');
      expect(await page.getByLabel('Category').inputValue()).toBe('');
      expect(await page.getByLabel('Describe what you need, or name a tool').inputValue()).toBe(
        'browser',
      );
      // The button went with the empty answer; focus went to the search box, not to the page.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
    });

    it('should offer, in a chosen filter, what choosing another value instead would find', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog?q=database&kind=tool&category=vector-database`);
      await expect.poll(() => page.locator('.cards > li').count()).toBeGreaterThan(0);
      const total = async (query: string) => {
        const answer = await fetch(`${app.base()}/api/catalog?q=database&${query}`);
        return ((await answer.json()) as { data: { total: number } }).data.total;
      };
      const offered = async (label: string) =>
        page
          .getByLabel(label)
          .locator('option')
          .evaluateAll((options) =>
            options.map((option) => [(option as HTMLOptionElement).value, option.textContent]),
          );
      // Each other category is counted as it would be chosen: with the words and the kind.
      const categories = await offered('Category');
      const others = categories.filter(([value]) => value !== '' && value !== 'vector-database');
      expect(others.length).toBeGreaterThan(2);
      for (const [value, text] of others.slice(0, 3)) {
        expect(text).toMatch(new RegExp(`\\(${await total(`kind=tool&category=${value}`)}\\)$`));
      }
      // The chosen one counts what is shown, and the kind list counts agents and frameworks too.
      const chosen = categories.find(([value]) => value === 'vector-database')?.[1];
      expect(chosen).toMatch(
        new RegExp(`\\(${await total('kind=tool&category=vector-database')}\\)$`),
      );
      const kinds = await offered('Kind');
      const framework = kinds.find(([value]) => value === 'framework')?.[1];
      expect(framework).toMatch(
        new RegExp(`\\(${await total('kind=framework&category=vector-database')}\\)$`),
      );
      await page.getByLabel('Category').selectOption(others[0]?.[0] ?? '');
      await expect.poll(() => page.url()).toMatch(new RegExp(`category=${others[0]?.[0]}`));
    });

    it('should offer the related categories of a search that finds little, as filters', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog?q=turbopuffer%20zzqqxxyy`);
      const related = page.getByRole('button', { name: 'vector-database', exact: true });
      await expect.poll(() => related.count()).toBe(1);
      await related.click();
      await expect.poll(() => page.getByLabel('Category').inputValue()).toBe('vector-database');
      expect(await page.getByLabel('Describe what you need, or name a tool').inputValue()).toBe('');
      await expect.poll(() => page.locator('.cards > li').count()).toBeGreaterThan(3);
      await expect.poll(() => page.url()).toMatch(/[?&]category=vector-database/);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
    });

    it('should check a request in the browser, in plain words, and keep its receipt safe', async () => {
      const page = app.page();
      // Opened from the link a search that finds nothing offers, which fills the form in.
      await page.goto(`${app.base()}/catalog?q=zebra%20telepathy%20broker`);
      await page.getByRole('link', { name: 'Ask for this capability' }).click();
      await expect
        .poll(() => page.getByLabel('What do you need?').inputValue())
        .toMatch(/zebra telepathy broker/);
      await page.getByLabel('What do you need?').fill('too short');
      // Words written and not filed: leaving asks first, and staying keeps them.
      const leaving: string[] = [];
      page.once('dialog', (dialog) => {
        leaving.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole('link', { name: 'Catalog', exact: true }).click();
      await expect
        .poll(() => leaving)
        .toEqual(['Leave without filing your request? What you wrote will be lost.']);
      expect(await page.getByLabel('What do you need?').inputValue()).toBe('too short');
      await page.getByRole('button', { name: 'File the request' }).click();
      await expect
        .poll(() => page.locator('#task-error').textContent())
        .toMatch(/at least 12 characters/);
      expect(await page.getByLabel('What do you need?').getAttribute('aria-invalid')).toBe('true');
      // A contact too long says by how much, not the hint's words again.
      await page.getByLabel('How can we reach you? (optional)').fill('x'.repeat(300));
      await page.getByRole('button', { name: 'File the request' }).click();
      await expect
        .poll(() => page.locator('#contact-error').textContent())
        .toBe('At most 254 characters: 300 now.');
      await page.getByLabel('How can we reach you? (optional)').fill('');

      // A listing id that does not exist: the API refuses it, and a person reads why in words.
      await page
        .getByLabel('What do you need?')
        .fill('An MCP server that brokers zebra telepathy.');
      await page.getByLabel('Catalog listing id (optional)').fill('no-such-listing');
      await page.getByRole('button', { name: 'File the request' }).click();
      await expect
        .poll(() => page.locator('#capability_id-error').textContent())
        .toMatch(/No catalog listing has this id/);
      // Focus goes to the field the service refused, not lost with the busy button.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe('capability_id');
      // Said once, by the field; the form's alert only points there.
      expect(await page.locator('.alert-error').textContent()).toBe(
        'Check the field marked below.',
      );
      await app.audit('request-form-errors', { plainWords: true });

      await page.getByLabel('Catalog listing id (optional)').fill('');
      await page.getByRole('button', { name: 'File the request' }).click();
      const link = (await page.locator('#receipt-link').textContent()) ?? '';
      expect(link).toMatch(/\/requests\/mine#id=[0-9a-f-]+&token=rq_/);
      // Filed: Back to this address must not offer the same request again, filled in.
      expect(new URL(page.url()).search).toBe('');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe('Request filed');
      await app.audit('request-receipt');

      // Leaving an unsaved receipt asks first, by a link or by the browser's Back; staying keeps
      // it on the screen.
      page.once('dialog', (dialog) => void dialog.dismiss());
      await page.getByRole('link', { name: 'Catalog', exact: true }).click();
      expect(await page.locator('h1').textContent()).toBe('Request filed');
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goBack();
      await expect.poll(() => asked.length).toBe(1);
      await expect.poll(() => page.url()).toMatch(/\/requests\/new$/);
      expect(await page.locator('h1').textContent()).toBe('Request filed');
      expect(await page.locator('#receipt-link').textContent()).toBe(link);

      await page.getByRole('button', { name: 'Open my request' }).click();
      await expect.poll(() => page.locator('#request-heading').textContent()).toMatch(/Received/);
      expect(page.url()).toBe(link);
      await page.reload();
      await expect.poll(() => page.locator('#request-heading').textContent()).toMatch(/Received/);
      await app.audit('my-request', { plainWords: true });

      // Another request's id and token typed into the fields, not read: Delete still deletes
      // the request on the screen, and only it.
      const other = (await (
        await fetch(`${app.base()}/api/requests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ task: 'Another request that must survive.', kind: 'capability' }),
        })
      ).json()) as { data: { id: string; token: string } };
      const readable = async (id: string, token: string) =>
        (
          await fetch(`${app.base()}/api/requests/${id}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status;
      const shown = new URLSearchParams(new URL(link).hash.slice(1));
      await page.getByLabel('Request id').fill(other.data.id);
      await page.getByLabel('Token (rq_…)').fill(other.data.token);
      await page.getByRole('button', { name: 'Delete this request' }).click();
      await page.getByRole('button', { name: 'Yes, delete it' }).click();
      await expect.poll(() => page.getByText('deleted for good').count()).toBe(1);
      expect(await readable(shown.get('id') ?? '', shown.get('token') ?? '')).toBe(404);
      expect(await readable(other.data.id, other.data.token)).toBe(200);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toMatch(/deleted for good/);
      expect(page.url()).not.toMatch(/token/);
      expect(await page.getByLabel('Request id').inputValue()).toBe('');
      expect(await page.getByLabel('Token (rq_…)').inputValue()).toBe('');
    });

    it('should name the listing a request is about, and say before filing when an id names none', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog/langchain`);
      await page.getByRole('link', { name: 'Report a correction' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('File a request');
      const id = page.getByLabel('Catalog listing id (optional)');
      const named = page.locator('#capability_id-hint');
      expect(await id.inputValue()).toBe('langchain');
      await expect.poll(() => named.textContent()).toBe('This request is about LangChain.');
      expect(await named.getByRole('link', { name: 'LangChain' }).getAttribute('href')).toBe(
        '/catalog/langchain',
      );
      await app.audit('request-form-listing', { plainWords: true });

      // Still a field to type in: an id that names nothing is said before anything is filed.
      await id.fill('no-such-listing');
      await expect.poll(() => named.textContent()).toMatch(/No catalog listing has this id/);
      expect(await id.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('.alert-error').count()).toBe(0);
      await id.fill('LangChain');
      await expect.poll(() => named.textContent()).toBe('This request is about LangChain.');
      expect(await id.getAttribute('aria-invalid')).toBeNull();

      // The id is what the request carries.
      await page.getByLabel('What do you need?').fill('Its authentication notes are out of date.');
      const filing = page.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/api/requests'),
      );
      await page.getByRole('button', { name: 'File the request' }).click();
      expect((await filing).postDataJSON()).toMatchObject({
        kind: 'correction',
        capability_id: 'LangChain',
      });
      await expect.poll(() => page.locator('h1').textContent()).toBe('Request filed');
      // Saved, so that the next journey may leave the receipt without being asked.
      await page.getByLabel('I have saved the link or the token').check();
    });

    it('should read an old category name in a link as its category, and a mangled listing link as broken', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/catalog?category=api-tools`);
      await expect
        .poll(() => page.locator('#filter-category').inputValue())
        .toBe('developer-tools');
      await expect
        .poll(() => new URL(page.url()).searchParams.get('category'))
        .toBe('developer-tools');
      await page.goto(`${app.base()}/catalog/${'x'.repeat(300)}`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Listing not found');
      expect(await page.locator('.alert-error').textContent()).toMatch(
        /link is broken or incomplete/,
      );
    });

    it('should have its own page for unknown addresses, a skip link and a phone menu', async () => {
      const page = app.page();
      await page.goto(`${app.base()}/nope`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Page not found');
      expect(await page.getByRole('link', { name: 'Search the catalog' }).count()).toBe(1);
      await app.audit('not-found', { plainWords: true });

      await page.goto(`${app.base()}/catalog`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
        'Skip to content',
      );
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

      await page.setViewportSize({ width: 375, height: 800 });
      const leaderboard = page.getByRole('link', { name: 'Leaderboard' });
      expect(await leaderboard.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe(
        'true',
      );
      await leaderboard.click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Leaderboard');
      expect(await leaderboard.isVisible()).toBe(false);
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('should show the API reference at /docs without a console error', async () => {
      const page = app.page();
      const errors: string[] = [];
      const listen = (message: { type(): string; text(): string }) => {
        if (message.type() === 'error') errors.push(message.text());
      };
      page.on('console', listen);
      try {
        await page.goto(`${app.base()}/docs`);
        await expect.poll(() => page.locator('.swagger-ui .info .title').count()).toBe(1);
        expect(await page.title()).toBe('Bazaar API reference');
        expect(errors).toEqual([]);
      } finally {
        page.off('console', listen);
      }
    });

    it('should have no serious or critical accessibility problems at either width', () => {
      expect(app.problems).toEqual({});
    });
  },
);
