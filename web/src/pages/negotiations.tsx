import { useEffect, useRef, useState } from 'preact/hooks';
import { listNegotiations, type NegotiationPage } from '../api/operations';
import { PlayerBar, usePlayerStats } from '../components/player';
import type { Me } from '../components/player-store';
import { Page, RetryAlert } from '../components/ui';
import { credits, date, moment, time } from '../format';
import { restoreFocus, savedScroll } from '../router';
import { problemText, statusText } from '../words';
import { ForPlayer } from './sign-in-first';

type Row = NegotiationPage['items'][number];

/** The player's negotiations, newest first, a page at a time as the API gives them. */
export const NegotiationsPage = () => (
  <ForPlayer title="Your negotiations" page={(me) => <Negotiations me={me} />} />
);

function Negotiations({ me }: { me: Me }) {
  const [stats] = usePlayerStats(me);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState('');
  // After "Show older negotiations": how many rows were shown, so focus moves to the first new one.
  const firstNew = useRef<number | null>(null);
  // What the last read asked for, to ask again after a failure ("Try again").
  const lastRead = useRef<[string | undefined, number]>([undefined, 0]);

  /** Reads pages from `cursor` on until at least `wanted` rows are added (one page at least). */
  const load = async (cursor?: string, wanted = 0) => {
    lastRead.current = [cursor, wanted];
    // Asked again ("Try again"), the alert goes until the answer: one that comes back is read out.
    setError('');
    try {
      let added: Row[] = [];
      let after = cursor;
      let more: string | null;
      do {
        const page = await listNegotiations(me.key, after === undefined ? {} : { cursor: after });
        added = [...added, ...page.items];
        more = page.next_cursor;
        after = more ?? undefined;
      } while (added.length < wanted && more !== null);
      setRows((before) => (cursor === undefined ? added : [...(before ?? []), ...added]));
      setNext(more);
      return true;
    } catch (failure) {
      setError(problemText(failure));
      return false;
    }
  };
  // Back to this page: as many rows as it showed, read afresh, and the reader's place in them.
  useEffect(() => {
    const y = savedScroll();
    const shown = (history.state as { shown?: unknown } | null)?.shown;
    void load(undefined, y !== null && typeof shown === 'number' ? shown : 0).then((read) => {
      if (!read || y === null) return;
      requestAnimationFrame(() => {
        window.scrollTo(0, y);
        restoreFocus();
      });
    });
  }, []);
  // How many rows this entry of the history shows, for Back to show as many.
  useEffect(() => {
    if (rows === null) return;
    history.replaceState({ ...(history.state as object | null), shown: rows.length }, '');
  }, [rows?.length]);
  useEffect(() => {
    const from = firstNew.current;
    if (from === null || rows === null || rows.length <= from) return;
    firstNew.current = null;
    document.querySelectorAll<HTMLAnchorElement>('.list > li > a')[from]?.focus();
  }, [rows?.length]);

  return (
    <Page title="Your negotiations">
      <PlayerBar me={me} stats={stats} />
      {error === '' ? null : (
        <RetryAlert onRetry={() => void load(...lastRead.current)}>{error}</RetryAlert>
      )}
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
                {row.cooldown_until !== null && Date.parse(row.cooldown_until) > Date.now()
                  ? ` · you can haggle for it again at ${moment(row.cooldown_until)}`
                  : ''}
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
