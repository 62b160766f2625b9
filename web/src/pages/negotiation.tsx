import { useEffect, useRef, useState } from 'preact/hooks';
import {
  api,
  bearer,
  call,
  credits,
  message,
  type AcceptResult,
  type OfferResult,
  type SessionDetail,
} from '../api';
import { rememberSession, usePlayer } from '../player';
import { Alert, Page, describedBy } from '../ui';
import { PlayerBar, usePlayerRecord } from './play';

const ended: Record<string, string> = {
  rejected: 'The seller ended this negotiation. No credits were spent.',
  expired: 'This negotiation expired: ten offers without a deal. No credits were spent.',
  abandoned: 'You walked away from this negotiation. No credits were spent.',
};

/** Structured warnings the seller may add to its reply; read when present, else the message says it. */
function warningOf(response: OfferResult['seller_response'] | undefined): string | null {
  const objection = (response as { objection?: unknown } | undefined)?.objection;
  if (typeof objection !== 'string' || objection === 'none') return null;
  return `Warning: ${objection.replace(/_/g, ' ')}.`;
}

export function NegotiationPage(props: { id: string }) {
  const me = usePlayer();
  const [player, refreshPlayer] = usePlayerRecord(me);
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  const [lastReply, setLastReply] = useState<OfferResult['seller_response'] | undefined>(undefined);
  const [deal, setDeal] = useState<AcceptResult | null>(null);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [offerError, setOfferError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const log = useRef<HTMLOListElement>(null);

  const load = async () => {
    if (me === null) return;
    try {
      setDetail(
        await call(
          api.GET('/api/haggle/{sessionId}', {
            params: { path: { sessionId: props.id } },
            headers: bearer(me.key),
          }),
        ),
      );
      rememberSession(me.id, props.id);
    } catch (failure) {
      setError(message(failure));
    }
  };
  useEffect(() => {
    void load();
  }, [props.id, me?.key]);
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [detail?.messages.length]);

  if (me === null) {
    return (
      <Page title="Negotiation">
        <p>
          <a href="/play">Register or sign in</a> to see your negotiations.
        </p>
      </Page>
    );
  }
  if (detail === null) {
    return (
      <Page title="Negotiation">{error === '' ? <p>Loading…</p> : <Alert>{error}</Alert>}</Page>
    );
  }

  const { session, product, messages } = detail;
  const active = session.status === 'active';
  const nextRound = session.rounds_count + 1;
  const lastRound = nextRound >= session.max_rounds;
  const typed = Number(amount);
  const tooMuch =
    player !== null && amount !== '' && Number.isFinite(typed) && typed > player.credits;

  const act = async (run: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await run();
    } catch (failure) {
      setError(message(failure));
    } finally {
      setBusy(false);
      refreshPlayer();
      await load();
    }
  };

  const offer = (event: Event) => {
    event.preventDefault();
    setOfferError(undefined);
    void act(async () => {
      try {
        const result = await call(
          api.POST('/api/haggle/offer', {
            body: {
              session_id: session.id,
              offer_amount: amount.trim(),
              ...(note.trim() === '' ? {} : { message: note }),
            },
            headers: bearer(me.key),
          }),
        );
        setLastReply(result.seller_response);
        setAmount('');
        setNote('');
      } catch (failure) {
        // The API's own sentence, at the field it is about.
        setOfferError(message(failure));
        document.getElementById('offer')?.focus();
      }
    });
  };

  const accept = () =>
    act(async () => {
      setDeal(
        await call(
          api.POST('/api/haggle/accept', {
            body: { session_id: session.id },
            headers: bearer(me.key),
          }),
        ),
      );
    });
  const abandon = () =>
    act(async () => {
      await call(
        api.POST('/api/haggle/abandon', {
          body: { session_id: session.id },
          headers: bearer(me.key),
        }),
      );
    });

  const price = session.final_price;
  const warning = warningOf(lastReply);
  return (
    <Page title={`Haggling for ${product.name}`}>
      <PlayerBar me={me} player={player} />
      <div class="deal-head">
        <img src={product.image_url} alt="" width={72} height={72} />
        <p>
          Market price <strong>{credits(product.market_price)}</strong> · {product.stock_quantity}{' '}
          in stock
          <br />
          <span class="status" id="status">
            {active
              ? `Round ${Math.min(nextRound, session.max_rounds)} of ${session.max_rounds}`
              : `Status: ${session.status}`}
          </span>
          {active && lastRound ? <span class="badge badge-warning"> Final round</span> : null}
        </p>
      </div>

      <ol class="chat" ref={log} aria-label="Conversation" aria-live="polite">
        {messages.map((entry) => (
          <li key={entry.id} class={`bubble bubble-${entry.sender}`}>
            <span class="who">{entry.sender === 'seller' ? 'Seller' : 'You'}</span>
            {entry.round > 0 ? <span class="round"> · round {entry.round}</span> : null}
            {entry.sender === 'seller' &&
            entry.round === session.max_rounds - 1 &&
            entry.offer_amount !== null ? (
              <span class="badge badge-warning"> final counter-offer</span>
            ) : null}
            <p>{entry.message}</p>
            {entry.offer_amount === null ? null : (
              <p class="amount">{credits(entry.offer_amount)}</p>
            )}
          </li>
        ))}
      </ol>

      {warning === null ? null : <Alert kind="warning">{warning}</Alert>}
      {error === '' ? null : <Alert>{error}</Alert>}

      {session.status === 'accepted' && price !== null ? (
        <div class="alert alert-success deal" role="status">
          <h2>Deal!</h2>
          <p>
            You bought {product.name} for <strong>{credits(price)}</strong>, saving{' '}
            <strong>{credits(deal?.savings ?? product.market_price - price)}</strong> on the market
            price.
            {deal !== null || player !== null ? (
              <>
                {' '}
                Your balance is now{' '}
                <strong>{credits(deal?.new_credits ?? player?.credits ?? 0)}</strong> credits.
              </>
            ) : null}
          </p>
          <p>
            <a href="/play/account">Your stats and transactions</a> ·{' '}
            <a href="/leaderboard">Leaderboard</a> · <a href="/play">More products</a>
          </p>
        </div>
      ) : null}
      {ended[session.status] === undefined ? null : (
        <Alert kind="info">
          <strong>
            {session.status === 'expired'
              ? 'Expired. '
              : session.status === 'rejected'
                ? 'Rejected. '
                : ''}
          </strong>
          {ended[session.status]} <a href="/play">Try another product</a>
        </Alert>
      )}

      {active ? (
        <div class="haggle-actions">
          {lastRound ? (
            <p class="hint">
              This is your last offer: the seller accepts it or the negotiation expires.
            </p>
          ) : null}
          <form onSubmit={offer} class="offer-form">
            <div class={offerError === undefined ? 'field' : 'field field-invalid'}>
              <label for="offer">Your offer (credits)</label>

              <input
                id="offer"
                type="text"
                inputMode="decimal"
                autocomplete="off"
                required
                value={amount}
                onInput={(event) => setAmount(event.currentTarget.value)}
                {...describedBy('offer', true, offerError)}
              />
              <p class="hint" id="offer-hint">
                {player === null
                  ? 'Up to 2 decimals.'
                  : `You have ${credits(player.credits)} credits.`}
                {tooMuch ? ' That is more than you have: the seller will refuse it.' : ''}
              </p>
              {offerError === undefined ? null : (
                <p class="field-error" id="offer-error">
                  {offerError}
                </p>
              )}
            </div>
            <div class="field">
              <label for="note">Message to the seller (optional)</label>
              <input
                id="note"
                type="text"
                maxLength={1000}
                value={note}
                onInput={(event) => setNote(event.currentTarget.value)}
              />
            </div>
            <button type="submit" disabled={busy}>
              Make offer
            </button>
          </form>
          <p class="actions">
            <button
              type="button"
              disabled={busy || session.ai_counter_offer === null}
              onClick={() => void accept()}
            >
              {session.ai_counter_offer === null
                ? 'Accept'
                : `Accept ${credits(session.ai_counter_offer)}`}
            </button>
            <button type="button" class="danger" disabled={busy} onClick={() => void abandon()}>
              Walk away
            </button>
          </p>
        </div>
      ) : null}
    </Page>
  );
}
