import { useEffect, useState } from 'preact/hooks';
import { listTransactions, type Transaction } from '../api/operations';
import { PlayerBar, usePlayerStats } from '../components/player';
import type { Me } from '../components/player-store';
import { CopyButton, Page, RetryAlert, Saved } from '../components/ui';
import { credits, date } from '../format';
import { problemText } from '../words';
import { ForPlayer } from './sign-in-first';

export const AccountPage = () => (
  <ForPlayer title="Your stats" page={(me) => <Account me={me} />} />
);

function Account({ me }: { me: Me }) {
  const [stats, readStats, statsError] = usePlayerStats(me);
  const [transactions, setTransactions] = useState<Transaction[] | null>(null);
  const [error, setError] = useState('');
  const readTransactions = () => {
    setError('');
    listTransactions(me.key, me.id).then(setTransactions, (failure: unknown) =>
      setError(problemText(failure)),
    );
  };
  useEffect(readTransactions, []);
  // Both reads may fail for one reason (the service unreachable): said once, with one "Try
  // again" that asks again for whatever failed.
  const failures = [statsError, error].filter(
    (text, i, all) => text !== '' && all.indexOf(text) === i,
  );
  return (
    <Page title="Your stats">
      <PlayerBar me={me} stats={stats} />
      {failures.length === 0 ? null : (
        <RetryAlert
          onRetry={() => {
            if (statsError !== '') readStats();
            if (error !== '') readTransactions();
          }}
        >
          {failures.join(' ')}
        </RetryAlert>
      )}
      {stats === null ? null : (
        <dl class="stats">
          <div>
            <dt>Credits</dt>
            <dd>{credits(stats.credits)}</dd>
          </div>
          <div>
            <dt>Score</dt>
            <dd>{stats.total_transactions === 0 ? '—' : stats.score.toFixed(2)}</dd>
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
            <dd>
              <Saved amount={stats.total_savings} />
            </dd>
          </div>
          <div>
            <dt>Best deal</dt>
            <dd>
              {stats.total_transactions === 0
                ? '—'
                : `${Math.abs(stats.best_deal_percentage).toFixed(2)} % ${
                    stats.best_deal_percentage >= 0 ? 'off' : 'above market'
                  }`}
            </dd>
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
      <ApiKey me={me} />
      {/* Deals that could not be read leave no heading over nothing: the alert above says why. */}
      {error === '' ? <h2>Your transactions</h2> : null}
      {transactions === null ? (
        error === '' ? (
          <p>Loading…</p>
        ) : null
      ) : transactions.length === 0 ? (
        <p>
          No deals yet. <a href="/play">Find something to haggle for.</a>
        </p>
      ) : (
        <div class="table-wrap stack-on-phone">
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
                  <td data-label="Paid" class="number">
                    {credits(deal.final_price)}
                  </td>
                  <td data-label="Market price" class="number">
                    {credits(deal.market_price)}
                  </td>
                  <td data-label="Saved" class="number">
                    <Saved amount={deal.savings} />
                  </td>
                  <td data-label="Date">{date(deal.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}

/**
 * The key this browser signs in with, hidden until asked for: the one place to see it again
 * after the page that showed it first is gone (to sign in on another device, or in a program).
 */
function ApiKey(props: { me: Me }) {
  const [shown, setShown] = useState(false);
  return (
    <section aria-labelledby="key-heading">
      <h2 id="key-heading">Your API key</h2>
      <p>
        This browser keeps your key until you sign out; sign in with it on another device, or send
        it as <code>Authorization: Bearer …</code> from a program. Anyone who has it can play as
        you.
      </p>
      <p class="secret-line">
        {shown ? <code id="api-key">{props.me.key}</code> : null}{' '}
        <button type="button" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? 'Hide key' : 'Show key'}
        </button>{' '}
        <CopyButton text={props.me.key} label="Copy key" />
      </p>
    </section>
  );
}
