import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { GameClient, type ProductData, type TestPlayer, UNLIMITED } from '../helpers/game.js';

interface Page {
  items: {
    id: string;
    status: string;
    product_id: string;
    product_name: string;
    started_at: string;
    ended_at: string | null;
    cooldown_until: string | null;
  }[];
  count: number;
  limit: number;
  next_cursor: string | null;
}

describe.each(testDialects)('list my negotiations (%s)', (dialect) => {
  let t: TestApp;
  let client: GameClient;
  let me: TestPlayer;
  let other: TestPlayer;
  let products: ProductData[];
  /** My session ids, oldest first. */
  const mine: string[] = [];
  /** Every one of my sessions as the first test listed them. */
  let all: string[] = [];

  beforeAll(async () => {
    // Five negotiations at once: more than the default cap.
    t = await createTestApp(dialect, { ...UNLIMITED, HAGGLE_MAX_ACTIVE: '10' });
    client = new GameClient(t);
    products = (await client.inStockProducts()).slice(0, 5);
    [me, other] = [await client.newPlayer('lister'), await client.newPlayer('other')];
    for (const product of products) {
      const { body } = await client.start(me, product.id);
      mine.push(body.data.id);
    }
    // One of mine walked away from, and another player's session that must never show.
    await client.post('/api/haggle/abandon', { session_id: mine[1] }, me);
    await client.start(other, products[0]?.id ?? '');
  });
  afterAll(() => t.close());

  const list = (query: string, player: TestPlayer = me) =>
    client.get<Page>(`/api/haggle${query}`, player);

  it('should list only my sessions, newest first, with the product name', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.data.items.map((item) => item.id).sort()).toEqual([...mine].sort());
    expect(body.data).toMatchObject({ count: 5, limit: 20, next_cursor: null });
    // Newest first; sessions opened in the same millisecond follow their ids.
    const order = body.data.items.map((item) => `${item.started_at} ${item.id}`);
    expect(order).toEqual([...order].sort().reverse());
    const first = body.data.items.find((item) => item.id === mine[0]);
    expect(first?.product_name).toBe(products[0]?.name);
    all = body.data.items.map((item) => item.id);
  });

  it('should filter by status', async () => {
    const active = await list('?status=active');
    expect(active.body.data.items.map((item) => item.id)).toEqual(
      all.filter((id) => id !== mine[1]),
    );
    const abandoned = await list('?status=abandoned');
    expect(abandoned.body.data.items.map((item) => item.id)).toEqual([mine[1]]);
    const bad = await list('?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
  });

  it('should say when a cool-down ends, and list the products it blocks', async () => {
    const { body } = await list('');
    const walkedAway = body.data.items.find((item) => item.id === mine[1]);
    const minutes = t.config.haggleCooldownMinutes;
    expect(minutes).toBeGreaterThan(0);
    expect(walkedAway?.cooldown_until).toBe(
      new Date(Date.parse(walkedAway?.ended_at ?? '') + minutes * 60_000).toISOString(),
    );
    // The time the start refuses to open that product until, to the millisecond.
    const refused = await client.start(me, products[1]?.id ?? '');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(`at ${walkedAway?.cooldown_until ?? ''}.`);
    for (const item of body.data.items.filter((item) => item.id !== mine[1])) {
      expect(item.cooldown_until).toBeNull();
    }

    const cooling = await list('?cooling_down=true');
    expect(cooling.status).toBe(200);
    expect(cooling.body.data.items.map((item) => item.id)).toEqual([mine[1]]);
    expect((await list('?cooling_down=false')).body.data.items).toHaveLength(body.data.count);
    expect((await list('?cooling_down=true&status=active')).body.data.items).toEqual([]);
    expect((await list('?cooling_down=true', other)).body.data.items).toEqual([]);

    // Once it has run out, the walk-away blocks nothing.
    const long = new Date(Date.now() - (minutes + 1) * 60_000).toISOString();
    await t.store.db
      .updateTable('haggle_sessions')
      .set({ ended_at: long })
      .where('id', '=', mine[1] ?? '')
      .execute();
    expect((await list('?cooling_down=true')).body.data.items).toEqual([]);
  });

  it('should page with a cursor, stable while new sessions open', async () => {
    const first = await list('?limit=2');
    expect(first.body.data.items.map((item) => item.id)).toEqual(all.slice(0, 2));
    const cursor = first.body.data.next_cursor ?? '';
    expect(cursor).not.toBe('');
    // A session opened now is newer than every page already seen: it does not shift them.
    await client.start(me, (await client.inStockProducts())[6]?.id ?? '');
    const second = await list(`?limit=2&cursor=${cursor}`);
    expect(second.body.data.items.map((item) => item.id)).toEqual(all.slice(2, 4));
    const third = await list(`?limit=2&cursor=${second.body.data.next_cursor ?? ''}`);
    expect(third.body.data.items.map((item) => item.id)).toEqual(all.slice(4));
    expect(third.body.data.next_cursor).toBeNull();
  });

  it('should refuse a cursor of another list or a forged one', async () => {
    const { body } = await list('?limit=1');
    for (const other of ['?status=active&', '?cooling_down=true&']) {
      const withOtherFilter = await list(`${other}cursor=${body.data.next_cursor ?? ''}`);
      expect(withOtherFilter.status).toBe(400);
      expect(withOtherFilter.body.code).toBe('validation_error');
    }
    const forged = await list('?cursor=not-a-cursor');
    expect(forged.status).toBe(400);
    // Cursors that decode to valid JSON of every other shape: null, a number, a string, an array.
    for (const json of ['null', '42', '"text"', '[1,2]', '{}', '{"v":1,"s":1,"i":"x","f":null}']) {
      const cursor = Buffer.from(json).toString('base64url');
      const answer = await list(`?cursor=${cursor}`);
      expect(answer.status, json).toBe(400);
      expect(answer.body.code).toBe('validation_error');
    }
  });

  it('should need a key', async () => {
    const response = await t.app.inject('/api/haggle');
    expect(response.statusCode).toBe(401);
  });

  it('should show another player only their own', async () => {
    const { body } = await list('', other);
    expect(body.data.items).toHaveLength(1);
    expect(body.data.items.every((item) => !mine.includes(item.id))).toBe(true);
  });
});
