// The numbers search ranks and answers by, as data (docs/discovery.md, "Ranking").

/**
 * The fields a listing is found by, most telling first: each with its weight and the length
 * (in words) at which it counts as neither short nor long. Name and aliases weigh most, then
 * what the listing is for (use cases, summary, categories), then its description.
 */
export const FIELDS = {
  name: { weight: 6, length: 2, b: 0.3 },
  aliases: { weight: 4, length: 6, b: 0.5 },
  use_cases: { weight: 3, length: 15, b: 0.5 },
  summary: { weight: 2.5, length: 18, b: 0.6 },
  categories: { weight: 2, length: 4, b: 0.3 },
  description: { weight: 1, length: 60, b: 0.75 },
  protocols: { weight: 1, length: 3, b: 0.3 },
  limitations: { weight: 0.4, length: 30, b: 0.75 },
} as const;
export type Field = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as Field[];

/**
 * What each lifecycle status multiplies a listing's score by: a small tie-break that puts
 * active listings first among equally fitting ones. Unknown statuses count as active.
 */
export const STATUS_WEIGHTS: Record<string, number> = {
  active: 1,
  maintenance: 0.97,
  deprecated: 0.9,
  archived: 0.85,
};
/** Listings ranked, filtered, counted and faceted at most; beyond, totals are estimates. */
export const MAX_RANKED = 300;

/** At most this many results count as few: the answer then suggests categories and a request. */
export const FEW_RESULTS = 3;
