import { Type, type Static } from 'typebox';
import { Money, MoneyInput, Timestamp, Uuid } from '../../http/schemas.js';
import {
  FAIR_LINE_PERCENT,
  FINAL_COUNTER_ROUND,
  INSULT_LINE_PERCENT,
  MAX_ROUNDS,
  MOVING_STEP_PER_MILLE,
  SCARCE_ASK_PERCENT,
  SCARCE_STOCK,
  STRIKES,
} from '../../seller/index.js';
import { Product } from '../products/products.schemas.js';
import { Transaction } from '../transactions/transactions.schemas.js';

const NullableMoney = (description: string) =>
  Type.Union([Money(), Type.Null()], { description, example: 37.5 });

export const Session = Type.Object({
  id: Uuid(),
  player_id: Uuid(),
  product_id: Uuid(),
  status: Type.Union(
    [
      Type.Literal('active'),
      Type.Literal('accepted'),
      Type.Literal('rejected'),
      Type.Literal('abandoned'),
      Type.Literal('expired'),
    ],
    {
      description:
        'Only an active session takes offers, accept or abandon. A session with no offer for the idle limit ' +
        '(`expires_at`) is `expired`, like one that ran out of rounds: its counter-offer no longer stands.',
    },
  ),
  current_offer: NullableMoney("The player's latest offer; null before the first."),
  ai_counter_offer: NullableMoney("The seller's latest counter-offer; null before the first."),
  rounds_count: Type.Integer({
    minimum: 0,
    maximum: MAX_ROUNDS,
    description: 'Offers made so far.',
  }),
  max_rounds: Type.Integer({ example: MAX_ROUNDS }),
  final_price: NullableMoney('The price of the deal; null unless accepted.'),
  started_at: Timestamp(),
  expires_at: Type.Union([Timestamp(), Type.Null()], {
    description:
      'While active: when the negotiation expires unless you make an offer first (each offer moves it on). null otherwise.',
  }),
  ended_at: Type.Union([Timestamp(), Type.Null()], { description: 'null while active.' }),
  cooldown_until: Type.Union([Timestamp(), Type.Null()], {
    description:
      'Ended without a deal: when its product opens to you again (`start` answers 409 `cooling_down` until then). ' +
      'null while active, after a deal, and when ending without a deal blocks nothing here (`cooldown_minutes` 0 ' +
      'in `info["x-game"]`).',
  }),
});

export const Message = Type.Object({
  id: Uuid(),
  sender: Type.Union([Type.Literal('seller'), Type.Literal('player')]),
  message: Type.String(),
  offer_amount: NullableMoney(
    'The price this message names: an offer, a counter-offer or a deal price.',
  ),
  round: Type.Integer({
    minimum: 0,
    description: '0 for the greeting, then the offer round it belongs to.',
  }),
  created_at: Timestamp(),
});

export const SellerResponse = Type.Object({
  action: Type.Union([Type.Literal('accept'), Type.Literal('counter'), Type.Literal('reject')]),
  counter_offer: NullableMoney('The seller’s new price; null unless action is counter.'),
  message: Type.String({ maxLength: 240 }),
  round: Type.Integer({
    minimum: 1,
    maximum: MAX_ROUNDS,
    description: 'The round this offer was.',
  }),
  rounds_left: Type.Integer({ minimum: 0, maximum: MAX_ROUNDS - 1 }),
  final: Type.Boolean({
    description: `No further counter will come: round ${FINAL_COUNTER_ROUND}’s counter (round ${MAX_ROUNDS} accepts only an offer at or above it), and every accept or reject.`,
  }),
  objection: Type.Union(
    [Type.Literal('none'), Type.Literal('insult'), Type.Literal('retreat'), Type.Literal('stall')],
    {
      description:
        `What the seller held against this offer: \`insult\` (below ${INSULT_LINE_PERCENT} % of market), ` +
        `\`retreat\` (below your previous offer), \`stall\` (no raise of ${MOVING_STEP_PER_MILLE / 10} % of market and below ` +
        `${FAIR_LINE_PERCENT} % of it: it earned nothing, so the ask stayed), or \`none\`.`,
    },
  ),
  strikes_left: Type.Union([Type.Integer({ minimum: 0, maximum: STRIKES - 1 }), Type.Null()], {
    description:
      `For an insult or a retreat: how many more of that kind the seller takes (it counts down from ${STRIKES}; ` +
      '0 = this one ended the negotiation). null when the offer was neither.',
    example: 1,
  }),
});

export const StartBody = Type.Object({
  player_id: Uuid('Your own player id.'),
  product_id: Uuid('The product to negotiate for.'),
});

export const OfferBody = Type.Object({
  session_id: Uuid(),
  offer_amount: MoneyInput(
    'Your offer in credits: above 0, at most 2 decimals, not more than your credits.',
  ),
  message: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'Optional words to the seller; they never change its price.',
    }),
  ),
  round: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ROUNDS,
      description:
        'The round this offer is for (`rounds_count` + 1), so that a retry changes nothing. The same offer sent again ' +
        'for the round last played gets that answer again (with the session and product as they stand now). Any ' +
        'other round but the next is 400 `validation_error` (409 `session_not_active` once the negotiation has ended).',
      example: 1,
    }),
  ),
});

export const SessionBody = Type.Object({ session_id: Uuid() });
export const SessionParams = Type.Object({ sessionId: Uuid() });

export const StartedSession = Type.Object({
  ...Session.properties,
  product: Product,
  opening_ask: Money(
    `The seller’s opening ask: the market price, or ${SCARCE_ASK_PERCENT} % above it when ${SCARCE_STOCK} or fewer are in stock.`,
  ),
  current_ask: Money(
    'What the seller asks now: its latest counter-offer, or the opening ask before the first.',
  ),
  resumed: Type.Boolean({
    description:
      'true when this is your active negotiation for the product, returned as it stands (status 200).',
  }),
  initial_message: Type.String({
    description:
      "The seller's latest words: its greeting (the market price and its opening ask) while no offer was made.",
  }),
});

export const OfferResult = Type.Object({
  session: Session,
  seller_response: SellerResponse,
  product: Product,
  new_credits: Money('Your credits after this offer.'),
  transaction: Type.Union([Transaction, Type.Null()], {
    description: 'The deal, when the seller accepted your offer; otherwise null.',
  }),
});

export const AcceptResult = Type.Object({
  session: Session,
  transaction: Transaction,
  new_credits: Money('Your credits after paying.'),
  savings: Money('market price − price paid.'),
});

export const SessionOnly = Type.Object({ session: Session });
export const SessionDetail = Type.Object({
  session: Session,
  product: Product,
  messages: Type.Array(Message),
});

export type SessionView = Static<typeof Session>;
export type MessageView = Static<typeof Message>;
export type StartedSessionView = Static<typeof StartedSession>;
export type OfferResultView = Static<typeof OfferResult>;
export type AcceptResultView = Static<typeof AcceptResult>;
export type SessionDetailView = Static<typeof SessionDetail>;

export const SessionListQuery = Type.Object({
  status: Type.Optional(Session.properties.status),
  cooling_down: Type.Optional(
    Type.Boolean({
      description:
        '`true`: only negotiations that ended without a deal and still block their product (`cooldown_until` to ' +
        'come): the products you cannot start a negotiation for yet. `false` (or absent): all.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Sessions per page.' }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 300,
      description: '`next_cursor` of the previous page, with the same `status` and `cooling_down`.',
    }),
  ),
});
export type SessionListQuery = Static<typeof SessionListQuery>;

export const SessionPage = Type.Object({
  items: Type.Array(
    Type.Object({
      ...Session.properties,
      product_name: Type.String({ description: 'The name of the product negotiated for.' }),
    }),
  ),
  count: Type.Integer({ minimum: 0, description: 'Sessions in this page.' }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});
export type SessionPageView = Static<typeof SessionPage>;
