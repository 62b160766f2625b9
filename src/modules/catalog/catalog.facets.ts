export type Facets = Record<
  'kind' | 'category' | 'protocol' | 'status' | 'license_kind',
  Record<string, number>
>;

/** How many listings (`n`) have one combination of kind, categories, protocols, status and licence kind. */
export interface MatchGroup {
  kind: string;
  categories_key: string;
  protocols_key: string;
  status: string;
  license_kind: string;
  n: number;
}

/** A value for each facet a search may be filtered by. */
export interface FacetFilter {
  kind?: string | undefined;
  category?: string | undefined;
  protocol?: string | undefined;
  status?: string | undefined;
  license_kind?: string | undefined;
}

const DIMENSIONS = ['kind', 'category', 'protocol', 'status', 'license_kind'] as const;

/**
 * Whether the listings of a group pass the filters: the same test as the search's SQL (a kind,
 * and a category and a protocol each one of the listing's, compared in lower case).
 */
export function passes(group: Omit<MatchGroup, 'n'>, filter: FacetFilter): boolean {
  const has = (key: string, value: string | undefined) =>
    value === undefined || key.includes(`|${value.toLowerCase()}|`);
  return (
    (filter.kind === undefined || group.kind === filter.kind) &&
    has(group.categories_key, filter.category) &&
    has(group.protocols_key, filter.protocol) &&
    (filter.status === undefined || group.status === filter.status) &&
    (filter.license_kind === undefined || group.license_kind === filter.license_kind)
  );
}

/** The groups of a catalog, one per combination of kind, categories and protocols. */
export function groupsOf(listings: Iterable<Omit<MatchGroup, 'n'>>): MatchGroup[] {
  const groups = new Map<string, MatchGroup>();
  for (const listing of listings) {
    const key = [
      listing.kind,
      listing.categories_key,
      listing.protocols_key,
      listing.status,
      listing.license_kind,
    ].join('\n');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { ...listing, n: 1 });
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
  const facets: Facets = { kind: {}, category: {}, protocol: {}, status: {}, license_kind: {} };
  let total = 0;
  for (const row of rows) {
    const { n } = row;
    const add = (counts: Record<string, number>, value: string) => {
      if (value !== '') counts[value] = (counts[value] ?? 0) + n;
    };
    total += n;
    add(facets.kind, row.kind);
    add(facets.status, row.status);
    add(facets.license_kind, row.license_kind);
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
      status: sorted(facets.status),
      license_kind: sorted(facets.license_kind),
    },
  };
}

/**
 * The total and facets of what passes `filter`, as a menu of filters wants them: the total with
 * every filter, each facet with every filter but its own, so that with `category=x` the other
 * categories count what choosing one of them instead would find. `passing` gives the groups of
 * what passes a filter.
 */
export function facetedSummary<Filter extends FacetFilter>(
  passing: (filter: Filter) => readonly MatchGroup[],
  filter: Filter,
): Summary {
  const summary = summarise(passing(filter));
  for (const dimension of DIMENSIONS) {
    if (filter[dimension] === undefined) continue;
    const without: Filter = { ...filter, [dimension]: undefined };
    summary.facets[dimension] = summarise(passing(without)).facets[dimension];
  }
  return summary;
}
