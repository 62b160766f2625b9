/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser and uses its types.
import { describe, expect, it } from 'vitest';
import { browserApp, skipBrowser } from './browser.js';

interface Product {
  id: string;
  name: string;
  market_price: number;
  stock_quantity: number;
}

describe.skipIf(skipBrowser)('the web app for players', { timeout: 120_000 }, () => {
  const app = browserApp();
  const username = `player${Date.now().toString(36)}`;
  let apiKey = '';
  let cheapest: Product[] = [];

  const api = async (path: string, body?: object) => {
    const response = await fetch(`${app.base()}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return ((await response.json()) as { data: Record<string, unknown> & { id: string } }).data;
  };

  it('should register, keep the key across a reload, and show the products', async () => {
    const page = app.page();
    await page.goto(`${app.base()}/play`);
    await app.audit('play-signed-out', { plainWords: true });
    // Mistakes are said next to each field, in words, and the first takes focus.
    await page.getByLabel('Username').fill('a b');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.locator('#username-error').textContent()).toMatch(/^Choose a/);
    expect(await page.locator('#email-error').textContent()).toMatch(/^Enter a valid e-mail/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('username');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('E-mail').fill(`${username}@example.com`);
    // Pressed again while the registration is on its way: still one registration.
    let posts = 0;
    await page.route('**/api/players', async (route) => {
      if (route.request().method() === 'POST') posts += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Registering…' }).count()).toBe(1);
    await page.getByLabel('E-mail').press('Enter');
    await expect.poll(() => page.locator('#key-heading').count()).toBe(1);
    await page.unroute('**/api/players');
    expect(posts).toBe(1);
    apiKey = (await page.locator('#api-key').textContent()) ?? '';
    expect(apiKey).toMatch(/^hg_[0-9a-f]{48}$/);
    await page.getByRole('button', { name: 'I have saved it: start playing' }).click();
    await page.reload();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(new RegExp(`Playing as ${username}.*100\\.00 credits`));
    await app.audit('play-products', { plainWords: true });
    // A search that finds nothing says so, and how to see every product again.
    const productCount = await page.locator('.card.product').count();
    await page.getByLabel('Search products').fill('zzzz');
    await expect
      .poll(() => page.locator('.result-count').textContent())
      .toBe('No product matches.');
    await page.getByRole('button', { name: 'Show all products' }).click();
    await expect.poll(() => page.locator('.card.product').count()).toBe(productCount);
    expect(await page.getByLabel('Search products').inputValue()).toBe('');
    const listed = (await (await fetch(`${app.base()}/api/products?in_stock=true`)).json()) as {
      data: Product[];
    };
    cheapest = [...listed.data].sort((a, b) => a.market_price - b.market_price);
    // Every picture is drawn with shapes, never a character that needs an emoji font.
    const image = await (
      await fetch(`${app.base()}/images/products/${cheapest[0]?.id}.svg`)
    ).text();
    expect(image).toMatch(/<path /);
    expect(image).not.toMatch(/[\u2600-\u27ff\u{1f300}-\u{1faff}]/u);
  });

  it('should play a negotiation as a game: checks, quick amounts, the price ladder, a deal', async () => {
    const page = app.page();
    const target = cheapest[0] as Product;
    await page.getByRole('button', { name: `Haggle for ${target.name}` }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Haggling for ${target.name}`);
    expect(await page.locator('.rounds-text').textContent()).toBe('10 offers left');

    // Checked in the browser before anything is sent: no round is used.
    const offer = page.getByLabel('Your offer (credits)');
    await offer.fill('150');
    await page.getByRole('button', { name: 'Make offer' }).click();
    expect(await page.locator('#offer-error').textContent()).toMatch(
      /more than the 100\.00 credits you have/,
    );
    await offer.fill('1.005');
    await page.getByRole('button', { name: 'Make offer' }).click();
    expect(await page.locator('#offer-error').textContent()).toMatch(/at most two decimals/);
    expect(await page.locator('.rounds-text').textContent()).toBe('10 offers left');

    await page.getByRole('button', { name: /^60 % of market/ }).click();
    expect(await offer.inputValue()).toBe((Math.round(target.market_price * 60) / 100).toFixed(2));
    // While an offer is on its way, its button says so, and so do words a screen reader hears.
    await page.route('**/api/haggle/offer', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    for (const [i, share] of [0.5, 0.52, 0.54].entries()) {
      await offer.fill((target.market_price * share).toFixed(2));
      await page.getByRole('button', { name: 'Make offer' }).click();
      if (i === 0) {
        await expect
          .poll(() => page.getByRole('button', { name: 'Sending offer…' }).count())
          .toBe(1);
        expect(await page.getByRole('status').textContent()).toBe(
          'Sending your offer to the seller…',
        );
      }
      await expect
        .poll(() => page.locator('.rounds-text').textContent())
        .toBe(`${9 - i} offers left`);
      if (i === 0) await page.unroute('**/api/haggle/offer');
    }
    expect(await page.getByRole('status').textContent()).toBe('');
    expect(await page.locator('.ladder .offer-dot').count()).toBe(3);
    expect(await page.locator('.ladder .ask-dot').count()).toBe(4);
    // A screen reader hears the chart's summary once (it was both the picture's name and the
    // caption's hidden words).
    const heard = await page.locator('.ladder').ariaSnapshot();
    expect(heard.match(/The seller asks/g)).toHaveLength(1);
    await app.audit('negotiation-active', { plainWords: true });

    // An offer made elsewhere (another tab) meanwhile: this page's offer names the round it saw,
    // so it is refused in words and the page shows the negotiation as it stands.
    const sessionId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await api('/api/haggle/offer', {
      session_id: sessionId,
      offer_amount: (target.market_price * 0.56).toFixed(2),
    });
    await offer.fill((target.market_price * 0.58).toFixed(2));
    await page.getByRole('button', { name: 'Make offer' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/another window or tab/);
    await expect.poll(() => page.locator('.rounds-text').textContent()).toBe('6 offers left');
    // Opened again on a screen where the offer box stays at the bottom, the seller's latest
    // answer is above it, not under it.
    const size = page.viewportSize();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.reload();
    await expect.poll(() => page.locator('.chat .bubble').count()).toBe(9);
    const covered = () =>
      page.evaluate(() => {
        const last = document.querySelector('.chat .bubble:last-child')?.getBoundingClientRect();
        const composer = document.querySelector('.composer')?.getBoundingClientRect();
        return last === undefined || composer === undefined ? null : last.bottom - composer.top;
      });
    await expect.poll(covered).toBeLessThanOrEqual(0);
    if (size !== null) await page.setViewportSize(size);

    // Walking away asks first; "Keep haggling" keeps the negotiation.
    await page.getByRole('button', { name: 'Walk away' }).click();
    await page.getByRole('button', { name: 'Keep haggling' }).click();
    expect(await page.getByRole('button', { name: 'Make offer' }).count()).toBe(1);

    await page.getByRole('button', { name: /^Accept / }).click();
    await expect.poll(() => page.locator('#deal-heading').textContent()).toMatch(/Deal!/);
    await expect.poll(() => page.locator('.deal-numbers').textContent()).toMatch(/Your rank 1/);
    expect(await page.locator('.deal-numbers').textContent()).toMatch(
      /Saved [\d.]+ \([\d.]+ % off\)/,
    );
    await app.audit('negotiation-deal', { plainWords: true });
  });

  it('should accept the opening price in round 1, and warn in words then walk away', async () => {
    const page = app.page();
    const second = cheapest[1] as Product;
    await page.goto(`${app.base()}/play`);
    await page.getByRole('button', { name: `Haggle for ${second.name}` }).click();
    // An offer above the seller's price would be taken at that price: the page asks first.
    const ask = Number((await page.locator('.price-line .ask').textContent())?.replace(/,/g, ''));
    const offer = page.getByLabel('Your offer (credits)');
    await offer.fill((ask + 1).toFixed(2));
    await page.getByRole('button', { name: 'Make offer' }).click();
    await expect
      .poll(() => page.getByRole('alertdialog').textContent())
      .toMatch(`The seller asks only ${ask.toFixed(2)}`);
    // The question keeps focus until it is answered: Tab goes round its two answers.
    const inFocus = () => page.evaluate(() => document.activeElement?.textContent);
    await expect.poll(inFocus).toBe('Change my offer');
    await page.keyboard.press('Tab');
    expect(await inFocus()).toBe(`Pay ${ask.toFixed(2)} instead`);
    await page.keyboard.press('Tab');
    expect(await inFocus()).toBe('Change my offer');
    await page.keyboard.press('Shift+Tab');
    expect(await inFocus()).toBe(`Pay ${ask.toFixed(2)} instead`);
    await page.keyboard.press('Shift+Tab');
    expect(await inFocus()).toBe('Change my offer');
    await page.getByRole('button', { name: 'Change my offer' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Make offer');
    expect(await page.locator('.rounds-text').textContent()).toBe('10 offers left');
    await page.getByRole('button', { name: 'Make offer' }).click();
    await page.getByRole('button', { name: `Pay ${ask.toFixed(2)} instead` }).click();
    await expect.poll(() => page.locator('#deal-heading').textContent()).toMatch(/Deal!/);
    expect(await page.locator('.deal-numbers').textContent()).toMatch(`Paid ${ask.toFixed(2)}`);

    // On a laptop's screen the offer box stays at the bottom: the page moves so that the
    // seller's warning is above the box, not under it.
    const fourth = cheapest[3] as Product;
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      await page.goto(`${app.base()}/play`);
      await page.getByRole('button', { name: `Haggle for ${fourth.name}` }).click();
      await page.getByLabel('Your offer (credits)').fill('0.01');
      await page.getByRole('button', { name: 'Make offer' }).click();
      await expect.poll(() => page.locator('.alert-warning').textContent()).toMatch(/insulting/);
      const uncovered = () =>
        page.evaluate(() => {
          const warning = document.querySelector('.alert-warning');
          const box = warning?.getBoundingClientRect();
          if (box === undefined || box.bottom > window.innerHeight) return false;
          return warning?.contains(document.elementFromPoint(box.left + 5, box.bottom - 5));
        });
      await expect.poll(uncovered).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // On a phone the offer box follows the conversation: after an offer, the seller's answer and
    // the warning are on the screen, not under the box.
    const third = cheapest[2] as Product;
    await page.setViewportSize({ width: 375, height: 667 });
    try {
      await page.goto(`${app.base()}/play`);
      await page.getByRole('button', { name: `Haggle for ${third.name}` }).click();
      await page.getByLabel('Your offer (credits)').fill('0.01');
      await page.getByRole('button', { name: 'Make offer' }).click();
      await expect.poll(() => page.locator('.alert-warning').textContent()).toMatch(/insulting/);
      // After an insulting offer, no quick amount is a small raise of it (still insulting).
      expect(await page.getByRole('button', { name: /^Raise / }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^60 % of market/ }).count()).toBe(1);
      // Polled: the page may still be scrolling the answer into view when the warning appears.
      const seen = () =>
        page.evaluate(() => {
          const inView = (element: Element | null) => {
            const box = element?.getBoundingClientRect();
            return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
          };
          const answer = document.querySelector('.chat > li:last-child');
          const box = answer?.getBoundingClientRect();
          const covering =
            box === undefined ? null : document.elementFromPoint(box.left + 5, box.top + 5);
          return {
            answer: inView(answer),
            covered: covering === null || answer?.contains(covering) !== true,
            warning: inView(document.querySelector('.alert-warning')),
          };
        });
      await expect.poll(seen).toEqual({ answer: true, covered: false, warning: true });
      // The chart's prices, drawn larger on a phone, fit inside it: none is cut at the left,
      // for a dearer product too. Its last units are asked above the market price, and the
      // button that pays the ask says so.
      const thirdPage = page.url();
      const scarce = cheapest.find((p) => p.stock_quantity <= 3 && p.market_price >= 20);
      const me = await api('/api/players/me');
      const dear = await api('/api/haggle/start', { player_id: me.id, product_id: scarce?.id });
      await page.goto(`${app.base()}/play/negotiations/${dear.id}`);
      await expect.poll(() => page.locator('.ladder .axis').count()).toBeGreaterThan(3);
      expect(await page.locator('.button-accept').textContent()).toMatch(
        /^Pay the asking price [\d.]+ \(above the market price\)$/,
      );
      const cut = await page.evaluate(() => {
        const chart = document.querySelector('.ladder svg')?.getBoundingClientRect();
        return Array.from(document.querySelectorAll<SVGTextElement>('.ladder .axis'))
          .filter((label) => chart === undefined || label.getBoundingClientRect().left < chart.left)
          .map((label) => label.textContent);
      });
      expect(cut).toEqual([]);
      await api('/api/haggle/abandon', { session_id: dear.id });
      await page.goto(thirdPage);
    } finally {
      // Back to the desktop layout even when a check failed, so later tests find the menu.
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // The question takes focus at once, and Escape is "no".
    const walk = page.getByRole('button', { name: 'Walk away' });
    await walk.click();
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await expect.poll(focused).toBe('Keep haggling');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
    await expect.poll(focused).toBe('Walk away');
    await walk.click();
    await page.getByRole('button', { name: 'Yes, walk away' }).click();
    await expect.poll(() => page.getByText('You walked away').count()).toBeGreaterThan(0);
    await expect.poll(focused).toMatch(/You walked away/);
    expect(await page.locator('.alert-warning').count()).toBe(0);
    // When the product opens again, as the service says (as the page writes a moment: the time
    // of day, with the date when that is another day, as it is shortly before midnight).
    const thirdId = page.url().split('/').at(-1) ?? '';
    const walked = (await api(`/api/haggle/${thirdId}`)).session as { cooldown_until: string };
    const reopens = await page.evaluate((iso) => {
      const at = new Date(iso);
      const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
      if (at.toDateString() === new Date().toDateString()) return time;
      const day = at.toLocaleDateString('en-GB', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
      });
      return `${day}, ${time}`;
    }, walked.cooldown_until);
    expect(await page.locator('.alert-info').textContent()).toContain(
      `You can haggle for this product again at ${reopens}.`,
    );
    await app.audit('negotiation-abandoned', { plainWords: true });

    // The products page says so in the product's card, before Haggle is pressed.
    await page.goto(`${app.base()}/play`);
    const card = page.locator('.card.product', { hasText: third.name });
    await expect
      .poll(() => card.locator('.hint').textContent())
      .toBe(
        `Your last negotiation for it ended without a deal: you can haggle for it again at ${reopens}.`,
      );
    expect(await card.getByRole('button', { name: `Haggle for ${third.name}` }).isDisabled()).toBe(
      true,
    );
    await app.audit('play-blocked', { plainWords: true });
    // Listed with its negotiations, with the same time.
    await page.goto(`${app.base()}/play/negotiations`);
    await expect
      .poll(() => page.locator('li', { hasText: third.name }).first().textContent())
      .toContain(`you can haggle for it again at ${reopens}`);

    // Had the page not learnt of it (the list could not be read), Haggle says why when pressed,
    // in the product's card.
    await page.route(/\/api\/haggle\?.*cooling_down=true/, (route) => route.abort());
    try {
      await page.goto(`${app.base()}/play`);
      await page.getByRole('button', { name: `Haggle for ${third.name}` }).click();
      await expect
        .poll(() => card.locator('.alert-error').textContent())
        .toMatch(
          /^A negotiation of yours for this product ended without a deal recently\. You can open a new one in/,
        );
      await expect.poll(focused).toMatch(/open a new one/);
    } finally {
      await page.unroute(/\/api\/haggle\?.*cooling_down=true/);
    }
  });

  it('should show the leaderboard, stats and every negotiation page by page', async () => {
    const page = app.page();
    // Another player pays a scarce product's ask, above its market price: saved below zero.
    const other = `over${Date.now().toString(36)}`;
    const registered = await fetch(`${app.base()}/api/players`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: other, email: `${other}@example.com` }),
    });
    const { data: player } = (await registered.json()) as { data: { id: string; api_key: string } };
    const scarce = cheapest.find((p) => p.stock_quantity <= 3 && p.market_price >= 20);
    const call = async (path: string, body: object) =>
      (
        (await (
          await fetch(`${app.base()}${path}`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${player.api_key}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify(body),
          })
        ).json()) as { data: { id: string; opening_ask: number } }
      ).data;
    const dear = await call('/api/haggle/start', { player_id: player.id, product_id: scarce?.id });
    await call('/api/haggle/offer', { session_id: dear.id, offer_amount: dear.opening_ask });

    await page.getByRole('link', { name: 'Leaderboard' }).first().click();
    await expect
      .poll(() => page.getByRole('rowheader', { name: `${username} (you)` }).count())
      .toBe(1);
    const overpaid = (dear.opening_ask - (scarce?.market_price ?? 0)).toFixed(2);
    expect(
      await page.locator('tr', { hasText: other }).locator('td[data-label="Saved"]').textContent(),
    ).toBe(`−${overpaid} (paid above the market price)`);
    await app.audit('leaderboard', { plainWords: true });
    await page.getByRole('link', { name: 'My stats' }).click();
    await expect
      .poll(() => page.getByRole('rowheader', { name: cheapest[0]?.name }).count())
      .toBe(1);
    await app.audit('account', { plainWords: true });
    // The key this browser keeps is shown again on request (the first page that showed it is gone).
    expect(await page.locator('#api-key').count()).toBe(0);
    await page.getByRole('button', { name: 'Show key' }).click();
    expect(await page.locator('#api-key').textContent()).toBe(apiKey);

    // More negotiations than one page holds.
    const me = await api('/api/players/me');
    for (const product of cheapest.slice(3, 23)) {
      const session = await api('/api/haggle/start', { player_id: me.id, product_id: product.id });
      await api('/api/haggle/abandon', { session_id: session.id });
    }
    await page.getByRole('link', { name: 'Negotiations' }).click();
    await expect.poll(() => page.locator('.list > li').count()).toBe(20);
    await page.getByRole('button', { name: 'Show older negotiations' }).click();
    await expect.poll(() => page.locator('.list > li').count()).toBe(24);
    expect(await page.getByRole('button', { name: 'Show older negotiations' }).count()).toBe(0);
    // The button is gone: focus went to the first row it brought, not to the page.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(await page.locator('.list > li > a').nth(20).textContent());
    // Back from an older one: every row shown before, and focus on the one that was opened.
    const older = page.locator('.list > li > a').nth(22);
    const olderLink = await older.getAttribute('href');
    await older.click();
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/^Haggling for /);
    await page.goBack();
    await expect.poll(() => page.locator('.list > li').count()).toBe(24);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('href')))
      .toBe(olderLink);
    await app.audit('negotiations', { plainWords: true });
  });

  it('should sign out, refuse a wrong key in words, and sign in with the key alone', async () => {
    const page = app.page();
    await page.goto(`${app.base()}/play`);
    // This player walked away from a product a moment ago: its card says so while signed in.
    await expect.poll(() => page.locator('.card.product .hint').count()).toBeGreaterThan(0);
    // Signing out forgets the key, which is never shown again: it asks first.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Stay signed in' }).click();
    expect(await page.locator('.player-bar').textContent()).toMatch(`Playing as ${username}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Yes, sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'New player' }).count()).toBe(1);
    // Nothing of the player's stays on the page for whoever uses the browser next.
    expect(await page.locator('.card.product .hint').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    // Registering as a player who exists already is said at the field that matched it.
    await page.getByLabel('Username').fill(username.toUpperCase());
    await page.getByLabel('E-mail').fill(`other-${username}@example.com`);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect
      .poll(() => page.locator('#username-error').textContent())
      .toMatch(/^This username is taken/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('username');
    await page.getByLabel('Username').fill(`other-${username}`);
    await page.getByLabel('E-mail').fill(`${username}@example.com`);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect
      .poll(() => page.locator('#email-error').textContent())
      .toBe(
        `This e-mail is already registered, as ${username}. Sign in with the key you saved then, or use another e-mail.`,
      );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.getByLabel('Your API key').fill(`hg_${'0'.repeat(48)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('This key is not valid').count()).toBe(1);
    await page.getByLabel('Your API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(`Playing as ${username}`);

    // The key replaced elsewhere (once the page has read the stats it asks for on signing in,
    // which would otherwise meet the new key half-way): the next action signs this browser
    // out, saying why, and the sign-in form takes the current key.
    await expect.poll(() => page.locator('.player-bar').textContent()).toMatch(/credits/);
    // Another tab of this browser, on another page, is signed out with the same reason.
    const other = await page.context().newPage();
    await other.goto(`${app.base()}/play/negotiations`);
    await expect.poll(() => other.locator('.player-bar').count()).toBe(1);
    const me = await api('/api/players/me');
    apiKey = String((await api(`/api/players/${me.id}/rotate-key`, {})).api_key);
    await page
      .getByRole('button', { name: /^Haggle for / })
      .first()
      .click();
    await expect
      .poll(() => page.getByText('This browser’s key is no longer valid').count())
      .toBe(1);
    expect(await page.locator('.player-bar').count()).toBe(0);
    await expect
      .poll(() => other.getByText('This browser’s key is no longer valid').count())
      .toBe(1);
    expect(await other.getByLabel('Your API key').count()).toBe(1);
    await other.close();
    await page.getByLabel('Your API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(`Playing as ${username}`);
  });

  it('should replace the key after asking, say so, and keep every tab signed in', async () => {
    const page = app.page();
    const oldKey = apiKey;
    // Another tab, whose stats read with the old key is answered only after the key is replaced:
    // that late refusal must not sign out a browser that holds the new key.
    const other = await page.context().newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let statsReads = 0;
    await other.route('**/api/players/*/stats', async (route) => {
      statsReads += 1;
      await held;
      await route.continue();
    });
    await other.goto(`${app.base()}/play/account`);
    await expect.poll(() => statsReads).toBe(1);

    // In front again: a tab behind another draws (and so answers clicks) only now and then.
    await page.bringToFront();
    await page.goto(`${app.base()}/play/account`);
    const replace = page.getByRole('button', { name: 'Replace key' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    // It asks first, and "Keep this key" keeps it.
    await replace.click();
    await expect.poll(focused).toBe('Keep this key');
    expect(await page.getByRole('alertdialog').textContent()).toMatch(/stops working at once/);
    await page.getByRole('button', { name: 'Keep this key' }).click();
    await expect.poll(focused).toBe('Replace key');

    // Offline, then too many replacements: said in words, with a way to try again.
    const rotation = '**/api/players/*/rotate-key';
    await page.route(rotation, (route) => route.abort());
    await replace.click();
    await page.getByRole('button', { name: 'Yes, replace it' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^The service cannot be reached/);
    await expect.poll(focused).toBe('Replace key');
    await page.unroute(rotation);
    await page.route(rotation, (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '30' },
        json: { success: false, code: 'rate_limited', error: 'Too many key rotations.' },
      }),
    );
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^Too many requests at once\. Try again in 30 seconds\./);
    await page.unroute(rotation);
    expect((await api('/api/players/me')).username).toBe(username);

    // Replaced: the news takes focus, with the new key under it to copy; the old key is refused.
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(focused)
      .toMatch(/^Your key is replaced, and this browser uses the new one\. The old key no longer/);
    apiKey = (await page.locator('#api-key').textContent()) ?? '';
    expect(apiKey).toMatch(/^hg_[0-9a-f]{48}$/);
    expect(apiKey).not.toBe(oldKey);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    const refused = await fetch(`${app.base()}/api/players/me`, {
      headers: { authorization: `Bearer ${oldKey}` },
    });
    expect(refused.status).toBe(401);
    expect((await api('/api/players/me')).username).toBe(username);
    await app.audit('account-key-replaced', { plainWords: true });

    // The other tab goes on with the new key, and its old read's refusal signs no one out.
    const late = other.waitForResponse((answer) => answer.status() === 401);
    release();
    await late;
    await expect.poll(() => other.locator('.player-bar').textContent()).toMatch(/credits/);
    await other.getByRole('button', { name: 'Show key' }).click();
    expect(await other.locator('#api-key').textContent()).toBe(apiKey);
    expect(await other.getByText('no longer valid').count()).toBe(0);
    await other.close();
    await page.reload();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(`Playing as ${username}`);

    // Storage that refuses the new key: the key is shown as not kept, never lost, and nothing
    // says that nothing changed.
    await page.evaluate(() => {
      // The app keeps its player in localStorage only.
      const setItem = Storage.prototype.setItem.bind(localStorage);
      Storage.prototype.setItem = (name: string, value: string) => {
        if (name === 'bazaar.player') throw new DOMException('Full.', 'QuotaExceededError');
        setItem(name, value);
      };
    });
    await replace.click();
    await page.getByRole('button', { name: 'Yes, replace it' }).click();
    await expect.poll(focused).toMatch(/is not kept in this browser/);
    const unkept = (await page.locator('#unkept-key').textContent()) ?? '';
    expect(unkept).toMatch(/^hg_[0-9a-f]{48}$/);
    expect(unkept).not.toBe(apiKey);
    apiKey = unkept;
    expect((await api('/api/players/me')).username).toBe(username);
    expect(await page.locator('.alert-error').count()).toBe(0);

    // Signed out in another tab while a replacement is on its way: it stays signed out, and the
    // new key is shown here.
    await page.reload();
    await expect.poll(() => page.getByLabel('Your API key').count()).toBe(1);
    await page.getByLabel('Your API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => replace.count()).toBe(1);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route(rotation, async (route) => {
      await answered;
      await route.continue();
    });
    await replace.click();
    await page.getByRole('button', { name: 'Yes, replace it' }).click();
    const third = await page.context().newPage();
    await third.goto(`${app.base()}/play`);
    await third.getByRole('button', { name: 'Sign out' }).click();
    await third.getByRole('button', { name: 'Yes, sign out' }).click();
    await page.bringToFront();
    await expect.poll(() => page.getByLabel('Your API key').count()).toBe(1);
    answer();
    await expect.poll(() => page.locator('#unkept-key').count()).toBe(1);
    const shown = (await page.locator('#unkept-key').textContent()) ?? '';
    expect(shown).not.toBe(apiKey);
    apiKey = shown;
    expect((await api('/api/players/me')).username).toBe(username);
    await page.unroute(rotation);
    await third.reload();
    expect(await third.locator('.player-bar').count()).toBe(0);
    await third.close();
    await page.getByLabel('Your API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(`Playing as ${username}`);

    // A Haggle pressed just before the key was replaced elsewhere: refused, and said so.
    await page.goto(`${app.base()}/play`);
    const start = '**/api/haggle/start';
    let go = () => {};
    const going = new Promise<void>((resolve) => {
      go = resolve;
    });
    await page.route(start, async (route) => {
      await going;
      await route.continue();
    });
    const haggle = page.getByRole('button', { name: `Haggle for ${cheapest[1]?.name}` });
    await haggle.click();
    const me = await api('/api/players/me');
    apiKey = String((await api(`/api/players/${me.id}/rotate-key`, {})).api_key);
    await page.evaluate(
      (player) => {
        localStorage.setItem('bazaar.player', JSON.stringify(player));
      },
      {
        id: me.id,
        username,
        key: apiKey,
      },
    );
    go();
    await expect
      .poll(() => page.getByText('key was replaced meanwhile, so nothing was done').count())
      .toBe(1);
    await page.unroute(start);
    await page.reload();
    await expect
      .poll(() => page.locator('.player-bar').textContent())
      .toMatch(`Playing as ${username}`);
  });

  it('should say once that a negotiation ended while its page was open', async () => {
    const page = app.page();
    // A product no other test has haggled for (none is in its cool-down).
    const product = cheapest.at(-1) as Product;
    await page.goto(`${app.base()}/play`);
    await page.getByRole('button', { name: `Haggle for ${product.name}` }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Make offer' }).count()).toBe(1);
    const sessionId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    // Ended elsewhere (as the clock would end it) while the page still offers to haggle.
    await api('/api/haggle/abandon', { session_id: sessionId });
    await page.getByLabel('Your offer (credits)').fill('1.00');
    await page.getByRole('button', { name: 'Make offer' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Make offer' }).count()).toBe(0);
    // Said once, as it ended (the page reads the negotiation again to learn how), and no error.
    await expect.poll(() => page.getByText('No credits were spent').count()).toBe(1);
    expect(await page.locator('.alert-error').count()).toBe(0);
  });

  it('should read a negotiation again at its deadline, without waiting for an action', async () => {
    const page = app.page();
    const product = cheapest.at(-3) as Product;
    // The page's clock is moved; the service's is not, so it still has the negotiation open.
    await page.clock.install();
    await page.goto(`${app.base()}/play`);
    await page.getByRole('button', { name: `Haggle for ${product.name}` }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Make offer' }).count()).toBe(1);
    const path = new URL(page.url()).pathname.replace('/play/negotiations/', '/api/haggle/');
    let reads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === path) reads += 1;
    });
    await page.clock.fastForward('14:00');
    expect(reads).toBe(0);
    // Ended there, as the service will say by then: the page says so with no offer made.
    await page.route(`**${path}`, async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { data: { session: Record<string, unknown> } };
      body.data.session = { ...body.data.session, status: 'expired', expires_at: null };
      await route.fulfill({ response: answer, json: body });
    });
    await page.clock.fastForward('01:02');
    await expect.poll(() => reads).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Make offer' }).count()).toBe(0);
    expect(await page.getByText('No credits were spent').count()).toBe(1);
    await page.unroute(`**${path}`);
    await api('/api/haggle/abandon', { session_id: path.split('/').at(-1) });
  });

  it('should not offer to pay an asking price above the credits, and say why', async () => {
    const page = app.page();
    const product = cheapest.at(-2) as Product;
    await page.goto(`${app.base()}/play`);
    await page.getByRole('button', { name: `Haggle for ${product.name}` }).click();
    const pay = page.getByRole('button', { name: /^Pay the asking price/ });
    await expect.poll(() => pay.count()).toBe(1);
    const me = await api('/api/players/me');
    const credits = Number((await api(`/api/players/${me.id}/stats`)).credits);
    const ask = Number((await page.locator('.price-line .ask').textContent())?.replace(/,/g, ''));
    expect(ask).toBeGreaterThan(credits);
    await expect.poll(() => pay.getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('#accept-short').textContent()).toMatch(/less than the .* asked/);
    // On the products page, the product's button goes back to this negotiation, and says so.
    const here = page.url();
    // The list of negotiations says when an open one ends.
    await page.goto(`${app.base()}/play/negotiations`);
    await expect
      .poll(() => page.locator('.list > li', { hasText: product.name }).first().textContent())
      .toMatch(/In progress.*ends unless you offer by \d/);
    await page.goto(`${app.base()}/play`);
    const back = page.getByRole('button', { name: `Continue haggling for ${product.name}` });
    await expect.poll(() => back.count()).toBe(1);
    expect(await back.textContent()).toBe('Continue haggling');
    // Two more open elsewhere: a fourth is refused, with the way to the ones that are open.
    const others = [];
    for (const other of [cheapest.at(-6), cheapest.at(-7)] as Product[]) {
      others.push(await api('/api/haggle/start', { player_id: me.id, product_id: other.id }));
    }
    await page
      .getByRole('button', { name: `Haggle for ${(cheapest.at(-8) as Product).name}` })
      .click();
    await expect
      .poll(() => page.getByRole('link', { name: 'See your negotiations' }).count())
      .toBe(1);
    for (const other of others) await api('/api/haggle/abandon', { session_id: other.id });
    await back.click();
    await expect.poll(() => page.url()).toBe(here);
    // Back on the products page, focus is on the button that led away, where the reader was.
    await page.goBack();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Continue haggling for ${product.name}`);
    await back.click();
    await expect.poll(() => page.url()).toBe(here);
    await page.getByRole('button', { name: 'Walk away' }).click();
    await page.getByRole('button', { name: 'Yes, walk away' }).click();
  });

  it('should ask before a last offer below the final price ends the negotiation', async () => {
    const page = app.page();
    const product = cheapest.at(-5) as Product;
    const me = await api('/api/players/me');
    const session = await api('/api/haggle/start', { player_id: me.id, product_id: product.id });
    // Nine offers that keep rising and stay below every floor: round 9's counter is final.
    for (let round = 1; round <= 9; round += 1) {
      const offer_amount = Math.floor(product.market_price * (44 + round)) / 100;
      await api('/api/haggle/offer', { session_id: session.id, offer_amount, round });
    }
    await page.goto(`${app.base()}/play/negotiations/${session.id}`);
    await expect.poll(() => page.locator('.rounds-text').textContent()).toBe('Last offer');
    // No example amount once offers were made (one below the last would be a step back).
    expect(await page.getByLabel('Your offer (credits)').getAttribute('placeholder')).toBeNull();
    const low = (Math.floor(product.market_price * 54) / 100).toFixed(2);
    await page.getByLabel('Your offer (credits)').fill(low);
    await page.getByRole('button', { name: 'Make offer' }).click();
    await expect.poll(() => page.getByText('This is your last offer').count()).toBe(1);
    await page.getByRole('button', { name: 'Change my offer' }).click();
    expect((await api(`/api/haggle/${session.id}`)).session).toMatchObject({ rounds_count: 9 });
    await page.getByRole('button', { name: 'Make offer' }).click();
    await page.getByRole('button', { name: 'Offer it anyway' }).click();
    await expect.poll(() => page.getByText('Ended without a deal').count()).toBeGreaterThan(0);
    expect(await page.locator('.price-line').textContent()).toContain('seller’s last ask');
    // An address no negotiation of this player has (another player's, say) is said to be so.
    await page.goto(`${app.base()}/play/negotiations/6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b`);
    await expect
      .poll(() => page.locator('.alert-error').textContent())
      .toMatch(/^None of your negotiations has this address\. It may be another player’s/);
  });

  it('should sign in on a linked game page and show that page', async () => {
    const page = app.page();
    await page.goto(`${app.base()}/play/negotiations`);
    const first = page.locator('main li a').first();
    await expect.poll(() => first.count()).toBe(1);
    const link = (await first.getAttribute('href')) ?? '';
    const name = (await first.textContent()) ?? '';
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Yes, sign out' }).click();
    // A link to a negotiation, opened signed out: the sign-in form is on that page.
    await page.goto(`${app.base()}${link}`);
    await expect.poll(() => page.getByLabel('Your API key').count()).toBe(1);
    await app.audit('negotiation-signed-out', { plainWords: true });
    await page.getByLabel('Your API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Haggling for ${name}`);
    expect(new URL(page.url()).pathname).toBe(link);
    // Focus is on the new page's heading (the form went with the page that held it), not on
    // the ended negotiation's alert: its end is no news to a page opened after it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    // Signing out from here leaves focus on the heading of the sign-in page that replaces it.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Yes, sign out' }).click();
    await expect.poll(() => page.getByLabel('Your API key').count()).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    // Another player signing in on this page sees nothing of the first one's negotiation.
    const other = `next${Date.now().toString(36)}`;
    const registered = await fetch(`${app.base()}/api/players`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: other, email: `${other}@example.com` }),
    });
    const otherKey = ((await registered.json()) as { data: { api_key: string } }).data.api_key;
    await page.getByLabel('Your API key').fill(otherKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.locator('.alert-error').textContent())
      .toMatch(/^None of your negotiations has this address/);
    // Asking again would find nothing more.
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(await page.locator('h1').textContent()).toBe('Negotiation');
    expect(await page.locator('.chat').count()).toBe(0);
    const signInAs = async (key: string) => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Yes, sign out' }).click();
      await page.getByLabel('Your API key').fill(key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.locator('.player-bar').count()).toBe(1);
    };
    // The same on the list of negotiations, even when the new player's list cannot be read.
    await signInAs(apiKey);
    await page.getByRole('link', { name: 'Negotiations' }).click();
    await expect.poll(() => page.locator('.list > li').count()).toBeGreaterThan(0);
    const lists = /\/api\/haggle(\?|$)/;
    await page.route(lists, (route) => route.abort());
    try {
      await signInAs(otherKey);
      await expect.poll(() => page.locator('.alert-error').count()).toBe(1);
      expect(await page.locator('.list > li').count()).toBe(0);
    } finally {
      await page.unroute(lists);
    }
    await signInAs(apiKey);
  });

  it('should keep the message box open while its text is cleared, and read products again after a failure', async () => {
    const page = app.page();
    const product = cheapest.at(-4) as Product;
    await page.goto(`${app.base()}/play`);
    await page.getByRole('button', { name: `Haggle for ${product.name}` }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Make offer' }).count()).toBe(1);
    await page.getByText('Add a message to the seller').click();
    await page.getByLabel('Message (optional; it never changes the price)').fill('a');
    await page.getByLabel('Message (optional; it never changes the price)').press('Backspace');
    expect(await page.locator('details.note').getAttribute('open')).not.toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('note');
    await page.getByRole('button', { name: 'Walk away' }).click();
    await page.getByRole('button', { name: 'Yes, walk away' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Make offer' }).count()).toBe(0);

    // A product search that fails leaves no list standing under it, and offers to ask again.
    await page.goto(`${app.base()}/play`);
    await expect.poll(() => page.locator('.cards.products > li').count()).toBeGreaterThan(0);
    const failing = /\/api\/products\?/;
    try {
      await page.route(failing, (route) => route.abort());
      await page.getByLabel('Search products').fill('a');
      await expect.poll(() => page.locator('.alert-error').count()).toBe(1);
      expect(await page.locator('.cards.products > li').count()).toBe(0);
    } finally {
      await page.unroute(failing);
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('.cards.products > li').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('product-search');
  });

  it('should ask again for what a page could not read, and show no section left empty', async () => {
    const page = app.page();
    const tryAgain = page.getByRole('button', { name: 'Try again' });
    const focused = () => page.evaluate(() => document.activeElement?.tagName);
    /** Fails the API calls matching `path` (unreachable) while `run` runs, even when it throws. */
    const unreachable = async (path: RegExp, run: () => Promise<void>) => {
      await page.route(path, (route) => route.abort());
      try {
        await run();
      } finally {
        // Later tests share the page.
        await page.unroute(path);
      }
    };

    // The leaderboard: asked again while the service still fails, it says so again; then it reads.
    const board = /\/api\/leaderboard\?/;
    await unreachable(board, async () => {
      await page.goto(`${app.base()}/leaderboard`);
      await expect
        .poll(() => page.locator('.alert-error').textContent())
        .toMatch(/cannot be reached/);
      expect(await page.locator('table').count()).toBe(0);
      const asked = page.waitForRequest(board);
      await tryAgain.click();
      await asked;
      await expect.poll(() => tryAgain.count()).toBe(1);
    });
    await tryAgain.click();
    await expect
      .poll(() => page.getByRole('rowheader', { name: `${username} (you)` }).count())
      .toBe(1);
    expect(await page.locator('.alert-error').count()).toBe(0);
    // The button went with the alert: focus is on the page's heading, not lost.
    await expect.poll(focused).toBe('H1');

    // The stats page: one alert for both reads, and no "Your transactions" heading over nothing.
    const transactions = page.getByRole('heading', { name: 'Your transactions' });
    await unreachable(/\/api\/(transactions\?|players\/[^/]+\/stats)/, async () => {
      await page.goto(`${app.base()}/play/account`);
      await expect.poll(() => page.locator('.alert-error').count()).toBe(1);
      expect(await page.locator('.alert-error').textContent()).toMatch(/cannot be reached/);
      expect(await transactions.count()).toBe(0);
      expect(await page.locator('dl.stats').count()).toBe(0);
      await app.audit('account-unreachable', { plainWords: true });
    });
    await tryAgain.click();
    await expect
      .poll(() => page.getByRole('rowheader', { name: cheapest[0]?.name }).count())
      .toBe(1);
    expect(await transactions.count()).toBe(1);
    // The two reads answer in either order.
    await expect.poll(() => page.locator('dl.stats').count()).toBe(1);
    expect(await page.locator('.alert-error').count()).toBe(0);
    await expect.poll(focused).toBe('H1');

    // The list of negotiations.
    await unreachable(/\/api\/haggle(\?|$)/, async () => {
      await page.goto(`${app.base()}/play/negotiations`);
      await expect.poll(() => tryAgain.count()).toBe(1);
      expect(await page.locator('.list > li').count()).toBe(0);
    });
    await tryAgain.click();
    await expect.poll(() => page.locator('.list > li').count()).toBeGreaterThan(0);
    expect(await page.locator('.alert-error').count()).toBe(0);
    await expect.poll(focused).toBe('H1');

    // A negotiation's page.
    const link = (await page.locator('.list > li > a').first().getAttribute('href')) ?? '';
    await unreachable(new RegExp(`/api/haggle/${link.split('/').at(-1) ?? ''}$`), async () => {
      await page.goto(`${app.base()}${link}`);
      await expect.poll(() => tryAgain.count()).toBe(1);
      expect(await page.locator('h1').textContent()).toBe('Negotiation');
    });
    await tryAgain.click();
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/^Haggling for /);
    expect(await page.locator('.alert-error').count()).toBe(0);
    await expect.poll(focused).toBe('H1');
  });

  it('should have no serious or critical accessibility problems at either width', () => {
    expect(app.problems).toEqual({});
  });
});
