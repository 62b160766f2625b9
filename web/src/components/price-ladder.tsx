import type { Message } from '../api/operations';
import { credits } from '../format';

const WIDTH = 560;
const HEIGHT = 220;
// Room on the left for a price such as 100.00 in the phone's larger labels (styles.css).
const PAD = { left: 72, right: 16, top: 16, bottom: 30 };

/**
 * The negotiation at a glance: the seller's asks coming down and your offers going up, round by
 * round, against the market price. Drawn from the messages the API returned; nothing is guessed.
 */
export function PriceLadder(props: { messages: Message[]; market: number; maxRounds: number }) {
  const asks = props.messages
    .filter((entry) => entry.sender === 'seller' && entry.offer_amount !== null)
    .map((entry) => ({ round: entry.round, amount: entry.offer_amount as number }));
  const offers = props.messages
    .filter((entry) => entry.sender === 'player' && entry.offer_amount !== null)
    .map((entry) => ({ round: entry.round, amount: entry.offer_amount as number }));
  const amounts = [props.market, ...asks.map((a) => a.amount), ...offers.map((o) => o.amount)];
  const top = Math.max(...amounts) * 1.05;
  const bottom = Math.max(0, Math.min(...amounts, props.market * 0.5) * 0.9);
  const x = (round: number) =>
    PAD.left + (round / props.maxRounds) * (WIDTH - PAD.left - PAD.right);
  const y = (amount: number) =>
    PAD.top + ((top - amount) / (top - bottom)) * (HEIGHT - PAD.top - PAD.bottom);
  const line = (points: { round: number; amount: number }[]) =>
    points
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.round).toFixed(1)} ${y(p.amount).toFixed(1)}`)
      .join(' ');

  const ask = asks[asks.length - 1];
  const best = offers.reduce<number | null>(
    (max, o) => (max === null || o.amount > max ? o.amount : max),
    null,
  );
  const summary =
    ask === undefined
      ? 'No prices yet.'
      : `The seller asks ${credits(ask.amount)}` +
        (best === null
          ? '; you have not offered yet.'
          : `; your best offer is ${credits(best)}, ${credits(Math.max(0, ask.amount - best))} apart.`);

  return (
    <figure class="ladder">
      {/* Drawn for the eye: the caption says what it shows, once, in words. */}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true">
        {[top, (top + bottom) / 2, bottom].map((tick) => (
          <g key={tick}>
            <line class="grid" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text class="axis" x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">
              {credits(tick)}
            </text>
          </g>
        ))}
        {Array.from({ length: props.maxRounds + 1 }, (_, round) => (
          <text key={round} class="axis" x={x(round)} y={HEIGHT - 8} text-anchor="middle">
            {round === 0 ? 'start' : round}
          </text>
        ))}
        <line
          class="market"
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(props.market)}
          y2={y(props.market)}
        />
        <text class="market-label" x={WIDTH - PAD.right} y={y(props.market) - 6} text-anchor="end">
          market {credits(props.market)}
        </text>
        <path class="asks" d={line(asks)} />
        <path class="offers" d={line(offers)} />
        {asks.map((p) => (
          <circle key={`a${p.round}`} class="ask-dot" cx={x(p.round)} cy={y(p.amount)} r={5} />
        ))}
        {offers.map((p) => (
          <circle key={`o${p.round}`} class="offer-dot" cx={x(p.round)} cy={y(p.amount)} r={5} />
        ))}
      </svg>
      <figcaption>
        <span class="key key-ask">Seller’s ask</span> <span class="key key-offer">Your offers</span>{' '}
        <span class="visually-hidden">{summary}</span>
      </figcaption>
    </figure>
  );
}
