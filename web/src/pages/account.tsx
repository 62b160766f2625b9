import { useEffect, useState } from 'preact/hooks';
import {
  api,
  bearer,
  call,
  credits,
  message,
  type LeaderboardEntry,
  type Session,
  type Stats,
  type Transaction,
} from '../api';
import { rememberedSessions, usePlayer, type Me } from '../player';
import { Alert, Page, date } from '../ui';
import { PlayerBar, usePlayerRecord } from './play';

function SignInFirst(props: { title: string }) {
  return (
    <Page title={props.title}>
      <p>
        <a href="/play">Register or sign in</a> first.
      </p>
    </Page>
  );
}

type Row = Session & { product_name?: string };

/**
 * The player's negotiations: from `GET /api/haggle` when the service lists them, else the ones
 * opened in this browser, each read by id.
 */
async function negotiations(me: Me): Promise<Row[]> {
  const listed = await fetch('/api/haggle', { headers: bearer(me.key) });
  if (listed.ok) {
    const body = (await listed.json()) as { data: unknown };
    const data = body.data as Row[] | { items?: Row[]; sessions?: Row[] };
    const rows = Array.isArray(data) ? data : (data.items ?? data.sessions ?? []);
    return rows.map((row) => ({
      ...row,
      product_name: row.product_name ?? (row as { product?: { name?: string } }).product?.name,
    }));
  }
  const details = await Promise.all(
    rememberedSessions(me.id).map((id) =>
      call(
        api.GET('/api/haggle/{sessionId}', {
          params: { path: { sessionId: id } },
          headers: bearer(me.key),
        }),
      ).then(
        (detail) => ({ ...detail.session, product_name: detail.product.name }),
        () => null,
      ),
    ),
  );
  return details.filter((row): row is NonNullable<typeof row> => row !== null);
}

export function NegotiationsPage() {
  const me = usePlayer();
  const [player] = usePlayerRecord(me);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (me !== null)
      negotiations(me).then(setRows, (failure: unknown) => setError(message(failure)));
  }, [me?.key]);
  if (me === null) return <SignInFirst title="Your negotiations" />;
  return (
    <Page title="Your negotiations">
      <PlayerBar me={me} player={player} />
      {error === '' ? null : <Alert>{error}</Alert>}
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>
          No negotiations yet. <a href="/play">Pick a product</a> to start one.
        </p>
      ) : (
        <ul class="list">
          {rows.map((row) => (
            <li key={row.id}>
              <a href={`/play/negotiations/${row.id}`}>{row.product_name ?? 'Negotiation'}</a>{' '}
              <span class={`badge badge-${row.status}`}>{row.status}</span>{' '}
              <span class="muted">
                {row.rounds_count} of {row.max_rounds} rounds · started {date(row.started_at)}
                {row.final_price === null ? '' : ` · bought for ${credits(row.final_price)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

export function AccountPage() {
  const me = usePlayer();
  const [player] = usePlayerRecord(me);
  const [stats, setStats] = useState<Stats | null>(null);
  const [transactions, setTransactions] = useState<Transaction[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (me === null) return;
    const headers = bearer(me.key);
    call(api.GET('/api/players/{id}/stats', { params: { path: { id: me.id } }, headers })).then(
      setStats,
      (failure: unknown) => setError(message(failure)),
    );
    call(api.GET('/api/transactions', { params: { query: { player_id: me.id } }, headers })).then(
      setTransactions,
      (failure: unknown) => setError(message(failure)),
    );
  }, [me?.key]);
  if (me === null) return <SignInFirst title="Your stats" />;
  return (
    <Page title="Your stats">
      <PlayerBar me={me} player={player} />
      {error === '' ? null : <Alert>{error}</Alert>}
      {stats === null ? null : (
        <dl class="stats">
          <div>
            <dt>Credits</dt>
            <dd>{credits(stats.credits)}</dd>
          </div>
          <div>
            <dt>Score</dt>
            <dd>{stats.score.toFixed(2)}</dd>
          </div>
          <div>
            <dt>Rank</dt>
            <dd>{stats.rank ?? '—'}</dd>
          </div>
          <div>
            <dt>Deals</dt>
            <dd>{stats.total_transactions}</dd>
          </div>
          <div>
            <dt>Saved</dt>
            <dd>{credits(stats.total_savings)}</dd>
          </div>
          <div>
            <dt>Best discount</dt>
            <dd>{stats.best_deal_percentage.toFixed(2)} %</dd>
          </div>
          <div>
            <dt>Active negotiations</dt>
            <dd>{stats.active_sessions}</dd>
          </div>
          <div>
            <dt>Finished negotiations</dt>
            <dd>{stats.completed_sessions}</dd>
          </div>
        </dl>
      )}
      <h2>Your transactions</h2>
      {transactions === null ? (
        <p>Loading…</p>
      ) : transactions.length === 0 ? (
        <p>No deals yet.</p>
      ) : (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Your transactions">
          <table>
            <caption class="visually-hidden">Your deals, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col" class="number">
                  Paid
                </th>
                <th scope="col" class="number">
                  Market price
                </th>
                <th scope="col" class="number">
                  Saved
                </th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {transactions.map((deal) => (
                <tr key={deal.id}>
                  <th scope="row">{deal.name}</th>
                  <td class="number">{credits(deal.final_price)}</td>
                  <td class="number">{credits(deal.market_price)}</td>
                  <td class="number">{credits(deal.savings)}</td>
                  <td>{date(deal.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}

export function LeaderboardPage() {
  const me = usePlayer();
  const [entries, setEntries] = useState<LeaderboardEntry[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    call(api.GET('/api/leaderboard', { params: { query: { limit: 100 } } })).then(
      setEntries,
      (failure: unknown) => setError(message(failure)),
    );
  }, []);
  return (
    <Page title="Leaderboard">
      <p class="lead">Score: market value bought per credit spent. Equal scores share a rank.</p>
      {error === '' ? null : <Alert>{error}</Alert>}
      {entries === null ? (
        <p>Loading…</p>
      ) : entries.length === 0 ? (
        <p>
          Nobody has bought anything yet. <a href="/play">Be the first.</a>
        </p>
      ) : (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Leaderboard">
          <table>
            <caption class="visually-hidden">Players by score</caption>
            <thead>
              <tr>
                <th scope="col" class="number">
                  Rank
                </th>
                <th scope="col">Player</th>
                <th scope="col" class="number">
                  Score
                </th>
                <th scope="col" class="number">
                  Items
                </th>
                <th scope="col" class="number">
                  Saved
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} class={entry.id === me?.id ? 'me' : undefined}>
                  <td class="number">{entry.rank}</td>
                  <th scope="row">
                    {entry.username}
                    {entry.id === me?.id ? ' (you)' : ''}
                  </th>
                  <td class="number">{entry.score.toFixed(2)}</td>
                  <td class="number">{entry.items_purchased}</td>
                  <td class="number">{credits(entry.total_savings)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
