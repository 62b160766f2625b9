import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import {
  acceptCounter,
  getNegotiation,
  makeOffer,
  walkAway,
  type SellerReply,
  type SessionDetail,
} from '../api/operations';
import { PlayerBar, usePlayerStats } from '../components/player';
import type { Me } from '../components/player-store';
import { DealDone, cents, quickAmounts } from '../components/haggle-parts';
import { PriceLadder } from '../components/price-ladder';
import { Alert, Confirm, Page, RetryAlert, describedBy } from '../components/ui';
import { amountProblem, credits, moment, time } from '../format';
import { endedWithoutDeal, objectionText, problemText, statusText } from '../words';
import { ForPlayer } from './sign-in-first';

export const NegotiationPage = (props: { id: string }) => (
  <ForPlayer title="Negotiation" page={(me) => <Negotiation id={props.id} me={me} />} />
);

function Negotiation(props: { id: string; me: Me }) {
  const { me } = props;
  const [stats, refreshStats] = usePlayerStats(me);
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  const [reply, setReply] = useState<SellerReply | null>(null);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  // The message box stays as the player left it, open while they clear what they wrote.
  const [noteOpen, setNoteOpen] = useState(false);
  const [error, setError] = useState('');
  // No negotiation of this player's has this address: asking again cannot help.
  const [missing, setMissing] = useState(false);
  const [amountError, setAmountError] = useState<string | undefined>(undefined);
  // What is on its way to the seller, said on its button until the answer comes.
  const [busy, setBusy] = useState<Move | null>(null);
  const [leaving, setLeaving] = useState(false);
  // An offer above the seller's price, waiting for the player to say what they meant.
  const [overpay, setOverpay] = useState<string | null>(null);
  // A last offer below the seller's final price, waiting for the player to confirm it.
  const [lastBelow, setLastBelow] = useState<string | null>(null);
  const log = useRef<HTMLOListElement>(null);
  // The seller's warning and any error of the last turn, just above the offer box.
  const news = useRef<HTMLDivElement>(null);
  // Set at once (state is not): a second click or Enter while a turn is sent sends nothing.
  const sending = useRef(false);
  // How many messages the page has shown: 0 until the first load.
  const shown = useRef(0);

  const load = async () => {
    try {
      setDetail(await getNegotiation(me.key, props.id));
    } catch (failure) {
      setMissing(
        failure instanceof ApiError && ['validation_error', 'not_found'].includes(failure.code),
      );
      // An address that is no negotiation's id at all was mangled or typed, not entered in a form.
      // Another player's negotiation is not found, as one that does not exist: say both.
      setError(
        failure instanceof ApiError && failure.code === 'validation_error'
          ? 'This link is broken or incomplete: no negotiation has this address.'
          : failure instanceof ApiError && failure.code === 'not_found'
            ? 'None of your negotiations has this address. It may be another player’s (sign in with their key to see it), or the link is wrong.'
            : problemText(failure),
      );
    }
  };
  useEffect(() => {
    void load();
  }, [props.id]);
  // Whether this page has shown the negotiation active: only then is its end news, to be shown
  // and focused; a negotiation opened when already over starts at the page's heading.
  const seenActive = useRef(false);
  if (detail?.session.status === 'active') seenActive.current = true;
  // A deal just made is shown at once, wherever the page was scrolled: the whole of it, with the
  // links to go on, as far as the screen holds it.
  useEffect(() => {
    if (detail?.session.status !== 'accepted' || !seenActive.current) return;
    document.getElementById('deal-heading')?.focus({ preventScroll: true });
    document.querySelector('.deal-done')?.scrollIntoView({ block: 'nearest' });
  }, [detail?.session.status]);
  // The newest messages in view: inside the conversation's own box where it scrolls (the page
  // moved only as far as the offer box covers it); on a narrow screen, where the page itself
  // scrolls, the page is moved after a turn (not on arrival, which starts at the heading) so
  // that the turn's first message is at the top, with the seller's answer, any warning and the
  // offer box under it.
  useEffect(() => {
    const chat = log.current;
    const count = detail?.messages.length ?? 0;
    const before = shown.current;
    shown.current = count;
    if (chat === null || count === 0) return;
    if (getComputedStyle(chat).maxHeight !== 'none') {
      chat.scrollTop = chat.scrollHeight;
      // On arrival too: the offer box kept at the bottom of the screen would cover the end of
      // the conversation, the seller's latest answer.
      if (count > before) showAboveComposer(news.current);
      return;
    }
    const first = chat.children[before];
    if (before > 0 && count > before && first !== undefined) {
      first.scrollIntoView({ block: 'start' });
    }
  }, [detail?.messages.length]);
  // A warning or an error that came without a new message (a refused offer) is shown too.
  useEffect(() => {
    if (error !== '' || reply !== null) showAboveComposer(news.current);
  }, [error, reply]);

  // A negotiation left without an offer ends at its deadline: the page reads it again then, so
  // that it says so before the next action is refused. While the service's clock still has it
  // open (this one runs ahead), it reads again a little later.
  useEffect(() => {
    const session = detail?.session;
    if (session?.status !== 'active' || session.expires_at === null) return;
    const wait = Math.max(Date.parse(session.expires_at) - Date.now() + 1000, 5000);
    const timer = setTimeout(() => {
      // Nothing was asked for: a read that fails says nothing, and the next action tells.
      getNegotiation(me.key, props.id).then(setDetail, () => undefined);
    }, wait);
    return () => clearTimeout(timer);
  }, [detail]);

  if (detail === null) {
    return (
      <Page title="Negotiation">
        {/* Who is signed in: the negotiation may be another player's. */}
        <PlayerBar me={me} stats={stats} />
        {error === '' ? (
          <p>Loading…</p>
        ) : (
          <>
            {missing ? (
              <Alert>{error}</Alert>
            ) : (
              <RetryAlert
                onRetry={() => {
                  // "Loading…" until the answer; failing again, the alert is read out again.
                  setError('');
                  void load();
                }}
              >
                {error}
              </RetryAlert>
            )}
            <p>
              <a href="/play/negotiations">Your negotiations</a> · <a href="/play">Products</a>
            </p>
          </>
        )}
      </Page>
    );
  }

  const { session, product, messages } = detail;
  const active = session.status === 'active';
  const roundsLeft = session.max_rounds - session.rounds_count;
  const openingAsk =
    messages.find((entry) => entry.sender === 'seller' && entry.offer_amount !== null)
      ?.offer_amount ?? product.market_price;
  const ask = session.ai_counter_offer ?? openingAsk;
  const available = stats?.credits ?? null;
  // The asking price is more than the player has: paying it is not offered (the API would refuse).
  const short = available !== null && ask > available;

  const act = async (move: Move, run: () => Promise<void>) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(move);
    setError('');
    try {
      await run();
    } catch (failure) {
      // Ended meanwhile (it ran out of time): the page, read again below, says so once, in
      // the words for how it ended, rather than under a second alert.
      if (!(failure instanceof ApiError && failure.code === 'session_not_active')) {
        setError(problemText(failure));
      }
    } finally {
      sending.current = false;
      setBusy(null);
      refreshStats();
      await load();
    }
  };

  const offer = (price: string, move: Move = 'offer') =>
    act(move, async () => {
      const result = await makeOffer(me.key, session.id, price, note, session.rounds_count + 1);
      setReply(result.seller_response);
      setAmount('');
      setNote('');
      setNoteOpen(false);
    });

  const submit = (event: Event) => {
    event.preventDefault();
    // A question about an earlier amount says nothing about this one.
    setOverpay(null);
    setLastBelow(null);
    const problem = amountProblem(amount, available);
    setAmountError(problem ?? undefined);
    if (problem !== null) {
      document.getElementById('offer')?.focus();
      return;
    }
    const typed = amount.trim().replace(',', '.');
    // The seller takes any offer at or above its price, at the price offered: paying more than
    // asked is a typing slip far more often than a wish.
    if (Number(typed) > ask) setOverpay(typed);
    // Below the final price, the last offer can only end the negotiation: asked first.
    else if (lastOffer && Number(typed) < ask) setLastBelow(typed);
    else void offer(typed);
  };

  const accept = () =>
    session.ai_counter_offer === null
      ? offer(openingAsk.toFixed(2), 'accept')
      : act('accept', async () => {
          await acceptCounter(me.key, session.id);
        });

  const abandon = () =>
    act('leave', async () => {
      setLeaving(false);
      await walkAway(me.key, session.id);
    });

  const price = session.final_price;
  // The seller's final counter (round 9's) is the least the last offer can be.
  const lastOffer = roundsLeft === 1 && session.ai_counter_offer !== null;
  const objection = active && reply !== null ? objectionText[reply.objection] : undefined;
  return (
    <Page title={`Haggling for ${product.name}`}>
      <PlayerBar me={me} stats={stats} />
      <div class="deal-head">
        <img src={product.image_url} alt="" width={88} height={88} />
        <div>
          <p class="price-line">
            Market price <strong>{credits(product.market_price)}</strong> ·{' '}
            {active ? 'seller asks' : 'seller’s last ask'}{' '}
            <strong class="ask">{credits(ask)}</strong>
          </p>
          <p class="muted">
            {product.stock_quantity} in stock · {statusText[session.status]}
            {active && session.expires_at !== null
              ? ` · ends unless you offer by ${time(session.expires_at)}`
              : ''}
          </p>
          {active ? (
            <p class="rounds">
              {/* Drawn for the eye; the words after them say the same. */}
              {Array.from({ length: session.max_rounds }, (_, i) => (
                <span
                  key={i}
                  class={i < session.rounds_count ? 'round used' : 'round'}
                  aria-hidden="true"
                />
              ))}
              <span class="rounds-text">
                {roundsLeft === 1 ? 'Last offer' : `${roundsLeft} offers left`}
              </span>
            </p>
          ) : null}
        </div>
      </div>

      <div class="game-grid">
        <PriceLadder
          messages={messages}
          market={product.market_price}
          maxRounds={session.max_rounds}
        />
        <ol
          class="chat"
          ref={log}
          tabIndex={0}
          aria-label="Conversation with the seller"
          aria-live="polite"
        >
          {messages.map((entry) => (
            <li key={entry.id} class={`bubble bubble-${entry.sender}`}>
              <span class="who">
                {entry.sender === 'seller' ? 'Seller' : 'You'}
                {entry.round > 0 ? ` · round ${entry.round}` : ''}
              </span>
              <p>{entry.message}</p>
              {entry.offer_amount === null ? null : (
                <p class="amount">{credits(entry.offer_amount)}</p>
              )}
            </li>
          ))}
        </ol>
      </div>

      <div ref={news}>
        {objection === undefined ? null : <Alert kind="warning">{objection}</Alert>}
        {error === '' ? null : <Alert>{error}</Alert>}
      </div>

      {session.status === 'accepted' && price !== null ? (
        <DealDone name={product.name} market={product.market_price} price={price} stats={stats} />
      ) : null}
      {endedWithoutDeal[session.status] === undefined ? null : (
        <Alert kind="info" focus={seenActive.current}>
          {endedWithoutDeal[session.status]}
          {session.cooldown_until !== null && Date.parse(session.cooldown_until) > Date.now()
            ? ` You can haggle for this product again at ${moment(session.cooldown_until)}.`
            : ''}{' '}
          <a href="/play">Try another product</a>
        </Alert>
      )}

      {active ? (
        <div class="composer">
          {overpay === null ? null : (
            <Confirm
              question={`The seller asks only ${credits(ask)}. An offer of ${credits(Number(overpay))} would be taken at ${credits(Number(overpay))}.`}
              yes={`Pay ${credits(ask)} instead`}
              no="Change my offer"
              onYes={() => {
                setOverpay(null);
                void accept();
              }}
              onNo={() => setOverpay(null)}
            />
          )}
          {lastBelow === null ? null : (
            <Confirm
              question={`This is your last offer, and the seller now takes only ${credits(ask)} or more: ${credits(Number(lastBelow))} ends the negotiation without a deal.`}
              yes="Offer it anyway"
              no="Change my offer"
              onYes={() => {
                const typed = lastBelow;
                setLastBelow(null);
                void offer(typed);
              }}
              onNo={() => setLastBelow(null)}
            />
          )}
          {leaving ? (
            <Confirm
              question="Walk away from this negotiation? You cannot reopen this product for a while."
              yes="Yes, walk away"
              no="Keep haggling"
              onYes={() => void abandon()}
              onNo={() => setLeaving(false)}
            />
          ) : null}
          <form onSubmit={submit} class="offer-form" noValidate>
            <div class={amountError === undefined ? 'field' : 'field field-invalid'}>
              <label for="offer">Your offer (credits)</label>
              <input
                id="offer"
                type="text"
                inputMode="decimal"
                autocomplete="off"
                // An example amount only before the first offer: later, one below the last
                // offer would suggest a step back (a retreat, to the seller).
                placeholder={session.current_offer === null ? credits(cents(ask * 0.8)) : undefined}
                value={amount}
                onInput={(event) => {
                  setAmount(event.currentTarget.value);
                  setAmountError(undefined);
                }}
                {...describedBy('offer', true, amountError)}
              />
              <p class="hint" id="offer-hint">
                {available === null ? 'Up to 2 decimals.' : `You have ${credits(available)}.`}
                {lastOffer
                  ? ` Last offer: the seller takes only ${credits(ask)} or more (its final price); anything less ends the negotiation.`
                  : roundsLeft === 1
                    ? ' Last offer: the seller takes it or the negotiation ends.'
                    : ''}
              </p>
              {amountError === undefined ? null : (
                <p class="field-error" id="offer-error">
                  {amountError}
                </p>
              )}
            </div>
            <div class="quick" role="group" aria-label="Quick amounts">
              {quickAmounts(product.market_price, ask, session.current_offer, lastOffer).map(
                ([label, value]) => (
                  <button
                    key={label}
                    type="button"
                    class="chip"
                    onClick={() => {
                      setAmount(value.toFixed(2));
                      setAmountError(undefined);
                    }}
                  >
                    {label} · {credits(value)}
                  </button>
                ),
              )}
            </div>
            <details
              class="note"
              open={noteOpen}
              onToggle={(event) => setNoteOpen(event.currentTarget.open)}
            >
              <summary>Add a message to the seller</summary>
              <div class="field">
                <label for="note">Message (optional; it never changes the price)</label>
                <input
                  id="note"
                  type="text"
                  maxLength={1000}
                  value={note}
                  onInput={(event) => setNote(event.currentTarget.value)}
                />
              </div>
            </details>
            <div class="actions">
              <button type="submit" aria-disabled={busy !== null}>
                {busy === 'offer' ? 'Sending offer…' : 'Make offer'}
              </button>
              <button
                type="button"
                class="button-accept"
                aria-disabled={busy !== null || short}
                aria-describedby={short ? 'accept-short' : undefined}
                onClick={() => {
                  if (!short) void accept();
                }}
              >
                {busy === 'accept'
                  ? 'Accepting…'
                  : session.ai_counter_offer === null
                    ? `Pay the asking price ${credits(openingAsk)}`
                    : `Accept ${credits(session.ai_counter_offer)}`}
                {/* Paying more than the market price lowers the score: said before, not after. */}
                {busy !== 'accept' && ask > product.market_price ? ' (above the market price)' : ''}
              </button>
              <button
                type="button"
                class="button-quiet"
                aria-disabled={busy !== null}
                onClick={() => {
                  if (!sending.current) setLeaving(true);
                }}
              >
                {busy === 'leave' ? 'Walking away…' : 'Walk away'}
              </button>
            </div>
            {/* Heard as well as seen: a button's new words are not read out while it has focus. */}
            <p class="visually-hidden" role="status">
              {busy === null ? '' : busyText[busy]}
            </p>
            {short ? (
              <p class="hint" id="accept-short">
                You have {credits(available)} credits, less than the {credits(ask)} asked: offer
                what you can pay.
              </p>
            ) : null}
          </form>
        </div>
      ) : null}
    </Page>
  );
}

/** A move sent to the seller: an offer, an accept or a walk-away. */
type Move = 'offer' | 'accept' | 'leave';

const busyText: Record<Move, string> = {
  offer: 'Sending your offer to the seller…',
  accept: 'Accepting the price…',
  leave: 'Walking away…',
};

/**
 * Where the offer box stays at the bottom of the screen (styles.css: wide and tall enough), it
 * covers what is under it: the page is moved so that `element` ends just above it.
 */
function showAboveComposer(element: Element | null): void {
  const composer = document.querySelector('.composer');
  if (element === null || composer === null) return;
  if (getComputedStyle(composer).position !== 'sticky') return;
  const overlap = element.getBoundingClientRect().bottom - composer.getBoundingClientRect().top;
  if (overlap > 0) window.scrollBy({ top: overlap + 8 });
}
