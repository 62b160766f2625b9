/**
 * The baselines the service is measured against: Fastify with the service's logger, and the
 * database driver called directly with prepared statements for the same work. Started by
 * `bench/run.ts`; reads DATABASE_URL, HOST and PORT like the service.
 *
 * - GET /healthz: Fastify + logger, nothing else.
 * - GET /raw/products/:id: the API key looked up by its hash, then the product read by id.
 * - POST /raw/deal {session_id}: one transaction: read the session and its product's market
 *   price, then the four writes of a deal (close the session, take one from stock, charge the
 *   player, insert the transaction), each conditional as in the service.
 */
import { createHash, randomUUID } from 'node:crypto';
import { BetterSqlite as BetterSqlite3 } from '../src/db/better-sqlite3.js';
import Fastify, { type FastifyReply } from 'fastify';
import pg from 'pg';
import { createLogger } from '../src/logger.js';

const url = process.env.DATABASE_URL ?? '';
const app = Fastify({ loggerInstance: createLogger('info') });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const keyOf = (header: string | undefined) => (header ?? '').replace(/^Bearer\s+/i, '');

interface Deal {
  player_id: string;
  product_id: string;
  price: number;
  market: number;
}

interface Backend {
  playerByKeyHash(hash: string): Promise<string | undefined>;
  product(id: string): Promise<unknown>;
  deal(sessionId: string): Promise<unknown>;
}

function sqliteBackend(path: string): Backend {
  const db = new BetterSqlite3(path);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const player = db.prepare('select id from players where api_key_hash = ?').pluck();
  const product = db.prepare('select * from products where id = ?');
  const session = db.prepare(
    `select s.player_id, s.product_id, s.counter_offer_cents as price, p.market_cents as market
     from haggle_sessions s join products p on p.id = s.product_id
     where s.id = ? and s.status = 'active'`,
  );
  const close = db.prepare(
    `update haggle_sessions set status = 'accepted', final_price_cents = ?, ended_at = ?
     where id = ? and status = 'active'`,
  );
  const stock = db.prepare(
    'update products set stock_quantity = stock_quantity - 1, updated_at = ? where id = ? and stock_quantity > 0',
  );
  const charge = db.prepare(
    `update players set credits_cents = credits_cents - ?, total_spent_cents = total_spent_cents + ?,
     total_market_cents = total_market_cents + ?, updated_at = ? where id = ? and credits_cents >= ?`,
  );
  const record = db.prepare(
    `insert into transactions (id, player_id, product_id, session_id, quantity, market_cents,
     final_price_cents, status, created_at) values (?, ?, ?, ?, 1, ?, ?, 'completed', ?)`,
  );
  const deal = db
    .transaction((sessionId: string) => {
      const found = session.get(sessionId) as Deal | undefined;
      if (found === undefined) throw new Error('no such active session');
      const at = new Date().toISOString();
      if (close.run(found.price, at, sessionId).changes !== 1) throw new Error('moved');
      if (stock.run(at, found.product_id).changes !== 1) throw new Error('out of stock');
      const { price, market, player_id: playerId } = found;
      if (charge.run(price, price, market, at, playerId, price).changes !== 1)
        throw new Error('credits');
      const id = randomUUID();
      record.run(id, playerId, found.product_id, sessionId, market, price, at);
      return { id, session_id: sessionId, final_price_cents: price };
    })
    .immediate.bind(null);
  return {
    playerByKeyHash: (hash) => Promise.resolve(player.get(hash) as string | undefined),
    product: (id) => Promise.resolve(product.get(id)),
    deal: (sessionId) => Promise.resolve(deal(sessionId)),
  };
}

function postgresBackend(connectionString: string): Backend {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const named = (name: string, text: string) => (values: unknown[]) => ({ name, text, values });
  const player = named('raw_player', 'select id from players where api_key_hash = $1');
  const product = named('raw_product', 'select * from products where id = $1');
  const session = named(
    'raw_session',
    `select s.player_id, s.product_id, s.counter_offer_cents as price, p.market_cents as market
     from haggle_sessions s join products p on p.id = s.product_id
     where s.id = $1 and s.status = 'active' for update of s`,
  );
  const close = named(
    'raw_close',
    `update haggle_sessions set status = 'accepted', final_price_cents = $1, ended_at = $2
     where id = $3 and status = 'active'`,
  );
  const stock = named(
    'raw_stock',
    'update products set stock_quantity = stock_quantity - 1, updated_at = $1 where id = $2 and stock_quantity > 0',
  );
  const charge = named(
    'raw_charge',
    `update players set credits_cents = credits_cents - $1, total_spent_cents = total_spent_cents + $1,
     total_market_cents = total_market_cents + $2, updated_at = $3 where id = $4 and credits_cents >= $1`,
  );
  const record = named(
    'raw_record',
    `insert into transactions (id, player_id, product_id, session_id, quantity, market_cents,
     final_price_cents, status, created_at) values ($1, $2, $3, $4, 1, $5, $6, 'completed', $7)`,
  );
  return {
    playerByKeyHash: async (hash) => (await pool.query<{ id: string }>(player([hash]))).rows[0]?.id,
    product: async (id): Promise<unknown> => (await pool.query(product([id]))).rows[0] as unknown,
    deal: async (sessionId) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const found = (await client.query<Deal>(session([sessionId]))).rows[0];
        if (found === undefined) throw new Error('no such active session');
        const at = new Date().toISOString();
        const { price, market, player_id: playerId } = found;
        if ((await client.query(close([price, at, sessionId]))).rowCount !== 1)
          throw new Error('moved');
        if ((await client.query(stock([at, found.product_id]))).rowCount !== 1)
          throw new Error('out of stock');
        if ((await client.query(charge([price, market, at, playerId]))).rowCount !== 1)
          throw new Error('credits');
        const id = randomUUID();
        await client.query(record([id, playerId, found.product_id, sessionId, market, price, at]));
        await client.query('commit');
        return { id, session_id: sessionId, final_price_cents: price };
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

const backend = url.startsWith('postgres')
  ? postgresBackend(url)
  : sqliteBackend(url.replace(/^sqlite:/, ''));

const unauthorized = (reply: FastifyReply) =>
  reply.code(401).send({ success: false, error: 'Unauthorized.', code: 'unauthorized' });

app.get('/healthz', () => ({ success: true, data: { status: 'ok' } }));

app.get<{ Params: { id: string } }>('/raw/products/:id', async (request, reply) => {
  const playerId = await backend.playerByKeyHash(sha256(keyOf(request.headers.authorization)));
  if (playerId === undefined) return unauthorized(reply);
  const product = await backend.product(request.params.id);
  if (product === undefined) return reply.code(404).send({ success: false });
  return { success: true, data: product };
});

app.post<{ Body: { session_id: string } }>('/raw/deal', async (request) => ({
  success: true,
  data: await backend.deal(request.body.session_id),
}));

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });
