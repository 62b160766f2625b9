import { useEffect, useRef, useState } from 'preact/hooks';
import { listTransactions, rotateKey, type Transaction } from '../api/operations';
import { PlayerBar, keyFailure, usePlayerStats } from '../components/player';
import { currentPlayer, signIn, usePlayer, type Me } from '../components/player-store';
import { Alert, Confirm, CopyButton, Page, RetryAlert, Saved } from '../components/ui';
import { credits, date } from '../format';
import { problemText } from '../words';
import { ForPlayer } from './sign-in-first';

export function AccountPage() {
  // The player with the key this page has just handed out, kept here: the page under it is
  // drawn afresh for the new key (as for any key), and says there that it is new.
  const [replaced, setReplaced] = useState<Me | null>(null);
  const me = usePlayer();
  return (
    <>
      <ForPlayer
        title="Your stats"
        page={(current) => (
          <Account me={current} replaced={replaced?.key === current.key} onReplaced={setReplaced} />
        )}
      />
      {/* Handed out, but this browser went on without it: shown whatever page took this one's place. */}
      {replaced === null || me?.key === replaced.key ? null : <UnkeptKey player={replaced} />}
    </>
  );
}

/**
 * A new key this browser did not switch to (it was signed out, or in as another player, in
 * another tab while the key was replaced; or its storage refused it): the player's only key now,
 * to copy before leaving the page.
 */
function UnkeptKey(props: { player: Me }) {
  return (
    <Alert kind="warning" focus>
      <p>
        <strong>The new key of {props.player.username} is not kept in this browser</strong> (it
        signed out or in as another player meanwhile, or could not store it). The old key no longer
        works: copy this one now, as it cannot be shown again.
      </p>
      <p class="secret-line">
        <code id="unkept-key">{props.player.key}</code>{' '}
        <CopyButton text={props.player.key} label="Copy the new key" />
      </p>
    </Alert>
  );
}

function Account(props: { me: Me; replaced: boolean; onReplaced: (player: Me) => void }) {
  const { me } = props;
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
      <ApiKey me={me} replaced={props.replaced} onReplaced={props.onReplaced} />
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
 * after the page that showed it first is gone (to sign in on another device, or in a program),
 * and to replace it when someone else may have it.
 */
function ApiKey(props: { me: Me; replaced: boolean; onReplaced: (player: Me) => void }) {
  // A key just handed out is shown at once: it is to be copied wherever the old one was used.
  const [shown, setShown] = useState(props.replaced);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Set at once (state is not): a second press while the key is replaced asks for no second key.
  const sending = useRef(false);

  const replace = async () => {
    setConfirming(false);
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    setError('');
    try {
      const player = await rotateKey(props.me.key, props.me.id);
      const next = { id: player.id, username: player.username, key: player.api_key };
      // This tab and the others go on with the new key, as after signing in with it, unless the
      // browser went on without the old one meanwhile (signed out, or in as another player).
      if (currentPlayer()?.key === props.me.key) {
        try {
          signIn(next);
        } catch {
          // Storage refused it (full, or blocked): the page shows the key as not kept.
        }
      }
      // After signing in, in the same turn: the page is drawn once, for where the key went.
      props.onReplaced(next);
    } catch (failure) {
      const said = keyFailure(failure, props.me.key);
      if (said === null) setError(problemText(failure));
      else if (said !== '') setError(said);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="key-heading">
      <h2 id="key-heading">Your API key</h2>
      <p>
        This browser keeps your key until you sign out; sign in with it on another device, or send
        it as <code>Authorization: Bearer …</code> from a program. Anyone who has it can play as
        you.
      </p>
      {props.replaced ? (
        // The button that was pressed went with the page drawn for the old key: reading goes on
        // from the news, with the new key right under it.
        <Alert kind="success" focus>
          <strong>Your key is replaced, and this browser uses the new one.</strong> The old key no
          longer works: give this new key to every program and device that used the old one.
        </Alert>
      ) : null}
      <p class="secret-line">
        {shown ? <code id="api-key">{props.me.key}</code> : null}{' '}
        <button type="button" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? 'Hide key' : 'Show key'}
        </button>{' '}
        <CopyButton text={props.me.key} label="Copy key" />
      </p>
      <p>
        <button
          type="button"
          class="danger"
          id="replace-key"
          aria-disabled={busy}
          onClick={() => {
            if (!sending.current) setConfirming(true);
          }}
        >
          {busy ? 'Replacing key…' : 'Replace key'}
        </button>
      </p>
      {confirming ? (
        <Confirm
          question="Replace your key? The current one stops working at once: this browser switches to the new key, but every program and device that uses the current one must be given the new key."
          yes="Yes, replace it"
          no="Keep this key"
          onYes={() => void replace()}
          onNo={() => setConfirming(false)}
        />
      ) : null}
      {error === '' ? null : (
        // The button goes with the alert: focus waits on the one that says it is replacing.
        <RetryAlert focusTo="replace-key" onRetry={() => void replace()}>
          {error}
        </RetryAlert>
      )}
    </section>
  );
}
