import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { GameClient, UNLIMITED } from '../helpers/game.js';
import { call, errorOf, mcpClients, transports, type Structured } from '../helpers/mcp.js';

interface ProductItem {
  id: string;
  market_price: number;
  stock_quantity: number;
}

/** Every item of a paged tool, following `next_cursor` from the first page on. */
async function everyPage(client: Client, tool: string, args: Structured): Promise<Structured[]> {
  const items: Structured[] = [];
  let cursor: unknown;
  do {
    const page = await call(client, tool, cursor === undefined ? args : { ...args, cursor });
    expect(page.isError, page.text).toBe(false);
    items.push(...(page.data.items as Structured[]));
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

describe.each(testDialects)('the game over MCP (%s)', (dialect) => {
  let t: TestApp;
  let game: GameClient;
  let base = '';
  const clients = mcpClients(() => base);

  beforeAll(async () => {
    t = await createTestApp(dialect, UNLIMITED);
    game = new GameClient(t);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await clients.closeAll();
    await t.close();
  });

  describe.each(transports)('over %s', (kind) => {
    it('should let a host holding only a key play a whole game and read its stats, never told its id', async () => {
      // The key was made elsewhere (the REST API); the host is configured with it alone.
      const { key } = await game.newPlayer(`key_${kind}`);
      const client = await clients.connect(kind, key);

      const me = await call(client, 'get_me');
      expect(me.data).toMatchObject({ credits: 100, email: expect.any(String) as string });

      const products = (await everyPage(client, 'list_products', { in_stock: true })) as never[];
      const product = (products as ProductItem[]).find((item) => item.market_price <= 60);
      if (product === undefined) throw new Error('no affordable product');

      const started = await call(client, 'start_negotiation', { product_id: product.id });
      expect(started.data).toMatchObject({ status: 'active', product_id: product.id });
      const sessionId = started.data.id as string;

      let response = { action: 'counter', final: false };
      for (let percent = 60; response.action === 'counter' && !response.final; percent += 5) {
        const offer = await call(client, 'make_offer', {
          session_id: sessionId,
          offer_amount: Math.floor(product.market_price * percent) / 100,
        });
        expect(offer.isError, offer.text).toBe(false);
        expect(offer.data).not.toHaveProperty('product');
        response = offer.data.seller_response as typeof response;
      }
      if (response.action === 'counter') {
        const accepted = await call(client, 'accept_counter_offer', { session_id: sessionId });
        expect(accepted.data.session).toMatchObject({ status: 'accepted' });
      }
      const read = await call(client, 'get_negotiation', { session_id: sessionId });
      expect(read.data.session).toMatchObject({ id: sessionId, status: 'accepted' });

      const stats = await call(client, 'get_player_stats');
      expect(stats.data).toMatchObject({ player_id: me.data.id, total_transactions: 1 });
      const deals = await call(client, 'list_transactions');
      expect(deals.data).toMatchObject({ items: [{ session_id: sessionId }], next_cursor: null });
      const board = await call(client, 'get_leaderboard');
      expect((board.data.items as Structured[]).map((entry) => entry.id)).toContain(me.data.id);
      // A bad argument is named as the tool names it, not as the API's path does (`id`).
      const wrong = await call(client, 'get_player_stats', { player_id: 'nope' });
      expect(errorOf(wrong)).toMatchObject({
        code: 'validation_error',
        error: expect.stringMatching(/^The request is invalid: player_id /) as string,
        details: [{ field: 'player_id' }],
      });
      // Arguments sent as null are taken as not sent, defaults included.
      const statsOfNull = await call(client, 'get_player_stats', { player_id: null });
      expect(statsOfNull.data).toEqual(stats.data);
      const dealsOfNull = await call(client, 'list_transactions', { player_id: null, limit: null });
      expect(dealsOfNull.data).toEqual(deals.data);
    });

    it('should learn who a key is once, not at every call that defaults to it', async () => {
      const player = await game.newPlayer(`once_${kind}`);
      const client = await clients.connect(kind, player.key);
      const remaining = async () =>
        Number((await game.get('/api/players/me', player)).response.headers['ratelimit-remaining']);
      const before = await remaining();
      for (let i = 0; i < 3; i++) {
        expect((await call(client, 'get_player_stats')).data).toMatchObject({
          player_id: player.id,
        });
      }
      // Three stats, one look-up of the key's player, and the second count itself.
      expect(before - (await remaining())).toBe(5);
    });

    it('should page products and transactions with next_cursor, as REST lists them', async () => {
      const { key } = await game.newPlayer(`pages_${kind}`);
      const client = await clients.connect(kind, key);
      const first = await call(client, 'list_products');
      expect((first.data.items as Structured[]).length).toBe(20);
      expect(Object.keys((first.data.items as Structured[])[0] ?? {})).not.toContain('description');
      const all = await everyPage(client, 'list_products', { limit: 15 });
      expect(all.map((item) => item.id)).toEqual((await game.products()).map((item) => item.id));

      const someone = (await call(client, 'get_leaderboard')).data.items as Structured[];
      const buyer = someone[0]?.id as string;
      const deals = await everyPage(client, 'list_transactions', { player_id: buyer, limit: 1 });
      const rest = await t.app.inject({
        url: `/api/transactions?player_id=${buyer}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(deals.map((deal) => deal.id)).toEqual(
        rest.json<{ data: Structured[] }>().data.map((deal) => deal.id),
      );
    });

    it('should count the inventory without listing every product', async () => {
      const { key } = await game.newPlayer(`stock_${kind}`);
      const client = await clients.connect(kind, key);
      const inventory = await call(client, 'get_inventory', { category: 'Books' });
      expect(inventory.data).toMatchObject({
        categories: [{ name: 'Books' }],
        total_products: expect.any(Number) as number,
      });
      expect(inventory.data).not.toHaveProperty('products');
    });

    it('should rotate the key: the old one stops working, as the tool says', async () => {
      const anonymous = await clients.connect(kind);
      const name = `rot_${kind}_${randomBytes(3).toString('hex')}`;
      const registered = await call(anonymous, 'register', {
        username: name,
        email: `${name}@example.com`,
      });
      const oldKey = registered.data.api_key as string;
      const player = kind === 'http' ? await clients.connect('http', oldKey) : anonymous;
      const rotated = await call(player, 'rotate_key');
      const newKey = rotated.data.api_key as string;
      expect(newKey).toMatch(/^hg_[0-9a-f]{48}$/);
      expect(newKey).not.toBe(oldKey);
      const after = await call(player, 'get_me');
      if (kind === 'stdio') {
        // The stdio session switched to the new key.
        expect(after.data.id).toBe(registered.data.id);
      } else {
        expect(errorOf(after)).toMatchObject({
          code: 'unauthorized',
          error: expect.stringContaining(
            'Rotated it? Only the key rotate_key returned works now.',
          ) as string,
        });
        const renewed = await clients.connect('http', newKey);
        expect((await call(renewed, 'get_me')).data.id).toBe(registered.data.id);
      }
      const other = await game.newPlayer('other');
      const refused = await call(player, 'rotate_key', { player_id: other.id });
      expect(errorOf(refused).code).toBe(kind === 'http' ? 'unauthorized' : 'forbidden');
    });
  });

  it('should act, over stdio, as the player register just made, as the tool says, even in a session started with a key', async () => {
    const first = await game.newPlayer('stdio_first');
    const client = await clients.connect('stdio', first.key);
    expect((await call(client, 'get_me')).data.id).toBe(first.id);
    for (const suffix of ['a', 'b']) {
      const name = `stdio_new_${suffix}_${randomBytes(3).toString('hex')}`;
      const registered = await call(client, 'register', {
        username: name,
        email: `${name}@example.com`,
      });
      expect((await call(client, 'get_me')).data).toMatchObject({
        id: registered.data.id,
        username: name,
      });
    }
  });
});
