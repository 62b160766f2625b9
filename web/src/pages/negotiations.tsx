import { useEffect, useRef, useState } from 'preact/hooks';
import { listNegotiations, type NegotiationPage } from '../api/operations';
import { PlayerBar, usePlayerStats } from '../components/player';
import { usePlayer } from '../components/player-store';
import { Alert, Page } from '../components/ui';
import { credits, date, time } from '../format';
import { problemText, statusText } from '../words';
import { SignInFirst } from './sign-in-first';

type Row = NegotiationPage['items'][number];

/** The player's negotiations, newest first, a page at a time as the API gives them. */
export function NegotiationsPage() {
  const me = usePlayer();
  const [stats] = usePlayerStats(me);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState('');
  // After "Show older negotiations": how many rows were shown, so focus moves to the first new one.
  const firstNew = useRef<number | null>(null);

  const load = async (cursor?: string) => {
    if (me === null) return;
    try {
      const page = await listNegotiations(me.key, cursor);
      setRows((before) => (cursor === undefined ? page.items : [...(before ?? []), ...page.items]));
      setNext(page.next_cursor);
    } catch (failure) {
      setError(problemText(failure));
    }
  };
  useEffect(() => {
    void load();
  }, [me?.key]);
  useEffect(() => {
    const from = firstNew.current;
    if (from === null || rows === null || rows.length <= from) return;
    firstNew.current = null;
    document.querySelectorAll<HTMLAnchorElement>('.list > li > a')[from]?.focus();
  }, [rows?.length]);

  if (me === null) return <SignInFirst title="Your negotiations" />;
  return (
    <Page title="Your negotiations">
      <PlayerBar me={me} stats={stats} />
      {error === '' ? null : <Alert>{error}</Alert>}
      {rows === null ? (
        error === '' ? (
          <p>Loading…</p>
        ) : null
      ) : rows.length === 0 ? (
        <p>
          No negotiations yet. <a href="/play">Pick a product</a> to start one.
        </p>
      ) : (
        <ul class="list">
          {rows.map((row) => (
            <li key={row.id}>
              <a href={`/play/negotiations/${row.id}`}>{row.product_name}</a>{' '}
              <span class={`badge badge-${row.status}`}>{statusText[row.status]}</span>{' '}
              <span class="muted">
                {row.rounds_count} of {row.max_rounds} offers · started {date(row.started_at)}
                {row.status === 'active' && row.expires_at !== null
                  ? ` · ends unless you offer by ${time(row.expires_at)}`
                  : ''}
                {row.final_price === null ? '' : ` · bought for ${credits(row.final_price)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {next === null ? null : (
        <button
          type="button"
          onClick={() => {
            firstNew.current = rows?.length ?? 0;
            void load(next);
          }}
        >
          Show older negotiations
        </button>
      )}
    </Page>
  );
}
