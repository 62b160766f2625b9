export type Facets = Record<'kind' | 'category' | 'protocol', Record<string, number>>;

/** How many listings (`n`) have one combination of kind, categories and protocols. */
export interface MatchGroup {
  kind: string;
  categories_key: string;
  protocols_key: string;
  n: number;
}

/**
 * Whether the listings of a group pass the filters: the same test as the search's SQL (a kind,
 * and a category and a protocol each one of the listing's, compared in lower case).
 */
export function passes(
  group: MatchGroup,
  filter: {
    kind?: string | undefined;
    category?: string | undefined;
    protocol?: string | undefined;
  },
): boolean {
  const has = (key: string, value: string | undefined) =>
    value === undefined || key.includes(`|${value.toLowerCase()}|`);
  return (
    (filter.kind === undefined || group.kind === filter.kind) &&
    has(group.categories_key, filter.category) &&
    has(group.protocols_key, filter.protocol)
  );
}

/** The groups of a catalog, one per combination of kind, categories and protocols. */
export function groupsOf(listings: Iterable<Omit<MatchGroup, 'n'>>): MatchGroup[] {
  const groups = new Map<string, MatchGroup>();
  for (const { kind, categories_key, protocols_key } of listings) {
    const key = `${kind}\n${categories_key}\n${protocols_key}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { kind, categories_key, protocols_key, n: 1 });
    else group.n += 1;
  }
  return [...groups.values()];
}

export interface Summary {
  total: number;
  facets: Facets;
}

/** The total and facets of matches counted per combination of kind, categories and protocols. */
export function summarise(rows: readonly MatchGroup[]): Summary {
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
