export type Facets = Record<'kind' | 'category' | 'protocol', Record<string, number>>;

export interface Summary {
  total: number;
  facets: Facets;
}

/** The total and facets of matches counted per combination of kind, categories and protocols. */
export function summarise(
  rows: { kind: string; categories_key: string; protocols_key: string; n: number }[],
): Summary {
  const facets: Facets = { kind: {}, category: {}, protocol: {} };
  let total = 0;
  for (const row of rows) {
    const { n } = row;
    const add = (counts: Record<string, number>, value: string) => {
      if (value !== '') counts[value] = (counts[value] ?? 0) + n;
    };
    total += n;
    add(facets.kind, row.kind);
    for (const value of row.categories_key.split('|')) add(facets.category, value);
    for (const value of row.protocols_key.split('|')) add(facets.protocol, value);
  }
  const sorted = (counts: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)),
    );
  return {
    total,
    facets: {
      kind: sorted(facets.kind),
      category: sorted(facets.category),
      protocol: sorted(facets.protocol),
    },
  };
}
