import type { Stats } from '../api/operations';
import { credits } from '../format';

/** Round to cents, as the API takes amounts. */
export const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * Amounts one tap away: opening moves first, then a raise and meeting the seller halfway. After
 * an offer below the first opening move the opening moves again: a small raise of an offer the
 * seller found insulting can be insulting still. None on the last offer against the seller's
 * final price: any of them would end the negotiation, and accepting the price is a button of
 * its own.
 */
export function quickAmounts(
  market: number,
  ask: number,
  lastOffer: number | null,
  finalRound = false,
): [string, number][] {
  if (finalRound) return [];
  const below = (amount: number) => amount < ask;
  const opening = cents(market * 0.6);
  const options: [string, number][] =
    lastOffer === null || lastOffer < opening
      ? [
          ['60 % of market', opening],
          ['70 %', cents(market * 0.7)],
          ['80 %', cents(market * 0.8)],
        ]
      : [
          ['Raise 2 %', cents(lastOffer + market * 0.02)],
          ['Raise 5 %', cents(lastOffer + market * 0.05)],
          ['Halfway', cents((lastOffer + ask) / 2)],
        ];
  return options.filter(([, amount]) => amount > 0 && below(amount));
}

/** What a deal came to: the price, the saving, the balance and rank it leaves. */
export function DealDone(props: {
  name: string;
  market: number;
  price: number;
  stats: Stats | null;
}) {
  const saved = cents(props.market - props.price);
  return (
    <section class="deal-done" aria-labelledby="deal-heading" role="status">
      <h2 id="deal-heading" tabIndex={-1}>
        Deal! {props.name} is yours.
      </h2>
      <p class="deal-numbers">
        <span>
          Paid <strong>{credits(props.price)}</strong>
        </span>
        <span>
          {saved >= 0 ? 'Saved ' : ''}
          <strong>{credits(Math.abs(saved))}</strong>
          {saved >= 0
            ? ` (${((saved / props.market) * 100).toFixed(2)} % off)`
            : ' above the market price'}
        </span>
        {props.stats === null ? null : (
          <span>
            Balance <strong>{credits(props.stats.credits)}</strong>
          </span>
        )}
        {props.stats?.rank === null || props.stats === null ? null : (
          <span>
            Your rank <strong>{props.stats.rank}</strong>
          </span>
        )}
      </p>
      <p class="actions">
        <a class="button" href="/play">
          Find another bargain
        </a>
        <a href="/leaderboard">Leaderboard</a>
        <a href="/play/account">Your stats</a>
      </p>
    </section>
  );
}
