import { Type, type Static } from 'typebox';
import { centsToCredits } from '../../http/money.js';
import { Money, Timestamp, Uuid } from '../../http/schemas.js';
import {
  CATEGORIES,
  demandLevel,
  demandPercent,
  hourAt,
  hourOf,
  type Category,
  type DemandLevel,
} from '../../seller/index.js';
import type { ProductRow } from './products.tables.js';

export const CategoryName = Type.Unsafe<Category>({
  type: 'string',
  enum: [...CATEGORIES],
  description: 'One of the five product categories.',
  example: 'Electronics',
});

export const Product = Type.Object({
  id: Uuid(),
  name: Type.String({ example: 'Wireless Earbuds' }),
  description: Type.String(),
  image_url: Type.String({ format: 'uri', description: 'An SVG image served by this service.' }),
  market_price: Money('What the item is worth; the seller opens at or a little above it.'),
  category: CategoryName,
  stock_quantity: Type.Integer({ minimum: 0 }),
  demand: Type.Union([Type.Literal('low'), Type.Literal('normal'), Type.Literal('high')], {
    description:
      'How the product is selling to all players: `high` after several sales in the last hour or two, ' +
      '`low` after many hours without a sale. High demand firms every negotiation’s floor for it, low ' +
      'demand softens it (by a few % of the market price at most); the floor itself is never shown.',
    example: 'normal',
  }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});

export const ProductQuery = Type.Object({
  category: Type.Optional(CategoryName),
  in_stock: Type.Optional(
    Type.Boolean({
      description: '`true`: only products with stock. `false` (or absent): all products.',
    }),
  ),
  search: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Case-insensitive text to find in the name or description.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description:
        'At most this many per page; without it, every match. When more follow, the `Link` header names the next page (`rel="next"`).',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 300,
      description: 'The `cursor` of the previous page’s `Link: …; rel="next"` header.',
    }),
  ),
});

export const ProductParams = Type.Object({ id: Uuid('The product id.') });

export type ProductView = Static<typeof Product>;

export const productImagePath = (id: string): string => `/images/products/${id}.svg`;

/**
 * `hourOf`, remembering its last two answers: a product list asks for the same time, and seeded
 * products share their creation time, so the read path parses almost no dates.
 */
function rememberingHourOf(): (at: string) => number {
  const memo = [
    { at: '', hour: 0 },
    { at: '', hour: 0 },
  ];
  let next = 0;
  return (at) => {
    const known = memo.find((entry) => entry.at === at);
    if (known !== undefined) return known.hour;
    const entry = { at, hour: hourOf(at) };
    memo[next] = entry;
    next = 1 - next;
    return entry.hour;
  };
}
const nowHour = rememberingHourOf();
const addedHour = rememberingHourOf();

/**
 * How demand moves a product's floors at `at`, in % of market, from the sales stored on its own
 * row (kept by each deal's update): no query beyond reading the product.
 */
export const productDemandPercent = (row: ProductRow, at: string): number =>
  demandPercentAt(row, nowHour(at));

const demandPercentAt = (row: ProductRow, hour: number): number =>
  demandPercent(
    {
      saleHour: row.sale_hour,
      salesThisHour: row.sales_this_hour,
      salesHourBefore: row.sales_hour_before,
      addedHour: addedHour(row.created_at),
    },
    hour,
  );

export const productDemand = (row: ProductRow, at: string): DemandLevel =>
  demandLevel(productDemandPercent(row, at));

/**
 * The public face of a product: never the seller's floor or any other seller parameter; its
 * demand level as of `at` (now unless given: the clock's hour, with no timestamp to format and
 * parse on every read).
 */
export function productView(row: ProductRow, baseUrl: string, at?: string): ProductView {
  const hour = at === undefined ? hourAt(Date.now()) : nowHour(at);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image_url: `${baseUrl}${productImagePath(row.id)}`,
    market_price: centsToCredits(row.market_cents),
    category: row.category,
    stock_quantity: row.stock_quantity,
    demand: demandLevel(demandPercentAt(row, hour)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
