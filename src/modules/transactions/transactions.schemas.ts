import { Type, type Static } from 'typebox';
import { centsToCredits } from '../../http/money.js';
import { Money, Timestamp, Uuid } from '../../http/schemas.js';
import { CategoryName, productImagePath } from '../products/products.schemas.js';
import type { TransactionWithProduct } from './transactions.repository.js';

export const Transaction = Type.Object({
  id: Uuid(),
  player_id: Uuid(),
  product_id: Uuid(),
  session_id: Uuid(),
  quantity: Type.Integer({ minimum: 1, example: 1 }),
  market_price: Money('Market price of the product when the deal was made.'),
  final_price: Money('The price paid.'),
  savings: Money('market_price − final_price.'),
  status: Type.Literal('completed'),
  created_at: Timestamp(),
  name: Type.String({ description: "The product's name." }),
  description: Type.String(),
  image_url: Type.String({ format: 'uri' }),
  category: CategoryName,
});

export const TransactionQuery = Type.Object({
  player_id: Type.Optional(Uuid('Only this player’s transactions.')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 100,
      description:
        'At most this many, newest first. When more follow, the `Link` header names the next page (`rel="next"`).',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 300,
      description: 'The `cursor` of the previous page’s `Link: …; rel="next"` header.',
    }),
  ),
});

export type TransactionView = Static<typeof Transaction>;

export function transactionView(row: TransactionWithProduct, baseUrl: string): TransactionView {
  return {
    id: row.id,
    player_id: row.player_id,
    product_id: row.product_id,
    session_id: row.session_id,
    quantity: row.quantity,
    market_price: centsToCredits(row.market_cents),
    final_price: centsToCredits(row.final_price_cents),
    savings: centsToCredits(row.market_cents - row.final_price_cents),
    status: row.status,
    created_at: row.created_at,
    name: row.name,
    description: row.description,
    image_url: `${baseUrl}${productImagePath(row.product_id)}`,
    category: row.category,
  };
}
