import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, message, type Listing, type SearchResult } from '../api';
import { setQuery, useLocation } from '../router';
import { Alert, Page, licenceText } from '../ui';

type License = Listing['provenance']['license_kind'];

type Facet = 'kind' | 'category' | 'protocol' | 'status' | 'license_kind';
/** Fields the search gains later; read when present so a regenerated client needs no change here. */
type Extras = { total?: number; facets?: Record<string, unknown>; suggestions?: unknown[] };

/** Facet counts in either shape an API may use: `{ value: count }` or `[{ value, count }]`. */
function facetCounts(raw: unknown): [string, number | null][] {
  if (Array.isArray(raw)) {
    return raw.flatMap((entry: Record<string, unknown>) => {
      const value = entry.value ?? entry.name ?? entry.key;
      return typeof value === 'string' && typeof entry.count === 'number'
        ? [[value, entry.count]]
        : [];
    });
  }
  if (raw !== null && typeof raw === 'object') {
    return Object.entries(raw).flatMap(([value, count]) =>
      typeof count === 'number' ? [[value, count] as [string, number]] : [],
    );
  }
  return [];
}

const suggestionText = (raw: unknown): string | null =>
  typeof raw === 'string'
    ? raw
    : raw !== null &&
        typeof raw === 'object' &&
        typeof (raw as { query?: unknown }).query === 'string'
      ? (raw as { query: string }).query
      : null;

export function CatalogPage() {
  const { query } = useLocation();
  const [filters, setFilters] = useState({
    q: query.get('q') ?? '',
    kind: query.get('kind') ?? '',
    category: query.get('category') ?? '',
    protocol: query.get('protocol') ?? '',
    status: query.get('status') ?? '',
    license_kind: query.get('license_kind') ?? '',
  });
  const [result, setResult] = useState<(SearchResult & Extras) | null>(null);
  const [error, setError] = useState('');
  const [seen, setSeen] = useState<Record<Facet, Set<string>>>({
    kind: new Set(['tool', 'agent', 'framework']),
    category: new Set(),
    protocol: new Set(),
    status: new Set(['active', 'maintenance', 'deprecated', 'archived']),
    license_kind: new Set(['open_source', 'source_available', 'proprietary', 'unknown']),
  });
  const latest = useRef(0);

  const search = async (cursor?: string) => {
    const ticket = ++latest.current;
    try {
      const page = (await call(
        api.GET('/api/catalog', {
          params: {
            query: {
              ...(filters.q.trim() === '' ? {} : { q: filters.q }),
              ...(filters.kind === '' ? {} : { kind: filters.kind as Listing['kind'] }),
              ...(filters.category === '' ? {} : { category: filters.category }),
              ...(filters.protocol === '' ? {} : { protocol: filters.protocol }),
              ...(filters.status === '' ? {} : { status: filters.status as Listing['status'] }),
              ...(filters.license_kind === ''
                ? {}
                : { license_kind: filters.license_kind as License }),
              limit: 24,
              ...(cursor === undefined ? {} : { cursor }),
            },
          },
        }),
      )) as SearchResult & Extras;
      if (ticket !== latest.current) return; // a newer search has started: drop this answer
      setError('');
      setResult((before) =>
        cursor === undefined || before === null
          ? page
          : { ...page, items: [...before.items, ...page.items] },
      );
      setSeen((before) => ({
        ...before,
        category: new Set([...before.category, ...page.items.flatMap((item) => item.categories)]),
        protocol: new Set([...before.protocol, ...page.items.flatMap((item) => item.protocols)]),
      }));
    } catch (failure) {
      if (ticket === latest.current) setError(message(failure));
    }
  };

  // Results as you type: wait for a short pause so every keystroke does not cost a request.
  useEffect(() => {
    setQuery(filters);
    const timer = setTimeout(() => void search(), 200);
    return () => clearTimeout(timer);
  }, [
    filters.q,
    filters.kind,
    filters.category,
    filters.protocol,
    filters.status,
    filters.license_kind,
  ]);

  const options = (facet: Facet): [string, number | null][] => {
    const counted = facetCounts(result?.facets[facet]);
    const list =
      counted.length > 0
        ? counted
        : [...seen[facet]].sort().map((value) => [value, null] as [string, null]);
    const selected = filters[facet];
    return selected === '' || list.some(([value]) => value === selected)
      ? list
      : [[selected, null], ...list];
  };

  const select = (facet: Facet, label: string) => (
    <div class="field">
      <label for={`filter-${facet}`}>{label}</label>
      <select
        id={`filter-${facet}`}
        value={filters[facet]}
        onChange={(event) => setFilters({ ...filters, [facet]: event.currentTarget.value })}
      >
        <option value="">Any</option>
        {options(facet).map(([value, count]) => (
          <option key={value} value={value}>
            {count === null ? value : `${value} (${count})`}
          </option>
        ))}
      </select>
    </div>
  );

  const items = result?.items ?? [];
  const q = filters.q.trim();
  const requestLink = `/requests/new?kind=capability${q === '' ? '' : `&task=${encodeURIComponent(q)}`}`;
  const suggestions = (result?.suggestions ?? [])
    .map(suggestionText)
    .filter((text): text is string => text !== null);

  return (
    <Page title="Find a tool, agent or framework">
      <p class="lead">
        Documented capabilities with their provenance, how authentication works and their honest
        limits.
      </p>
      <form class="search" role="search" onSubmit={(event) => event.preventDefault()}>
        <div class="field search-box">
          <label for="search">Search the catalog</label>
          <input
            id="search"
            type="search"
            value={filters.q}
            maxLength={300}
            autocomplete="off"
            placeholder="e.g. mcp server for postgres"
            onInput={(event) => setFilters({ ...filters, q: event.currentTarget.value })}
          />
        </div>
        <div class="filters">
          {select('kind', 'Kind')}
          {select('category', 'Category')}
          {select('protocol', 'Protocol')}
          {select('status', 'Status')}
          {select('license_kind', 'Licence')}
        </div>
      </form>
      {error === '' ? null : <Alert>{error}</Alert>}
      <p class="result-count" role="status">
        {result === null
          ? 'Searching…'
          : items.length === 0
            ? 'No listing matches.'
            : `${result.total} listing${result.total === 1 ? '' : 's'}`}
      </p>
      {result !== null && items.length === 0 ? (
        <div class="empty">
          {suggestions.length === 0 ? null : (
            <p>
              Did you mean{' '}
              {suggestions.map((text, i) => (
                <>
                  {i === 0 ? '' : ', '}
                  <button
                    type="button"
                    class="link"
                    onClick={() => setFilters({ ...filters, q: text })}
                  >
                    {text}
                  </button>
                </>
              ))}
              ?
            </p>
          )}
          <p>
            Nothing in the catalog does this yet. Tell us what you need and we will look for it.
          </p>
          <a class="button" href={requestLink}>
            File a capability request
          </a>
        </div>
      ) : null}
      <ul class="cards">
        {items.map((listing) => (
          <li key={listing.id} class="card">
            <h2>
              <a href={`/catalog/${listing.id}`}>{listing.name}</a>
            </h2>
            <p class="meta">
              <span class={`badge badge-${listing.kind}`}>{listing.kind}</span>
              {listing.status === 'active' ? null : (
                <span class="badge badge-warning">{listing.status}</span>
              )}
              <span class="badge">{licenceText(listing.provenance)}</span>
              {listing.authentication.required ? (
                <span class="badge">needs credentials</span>
              ) : (
                <span class="badge">no credentials</span>
              )}
            </p>
            <p>{listing.summary}</p>
            <p class="tags">{[...listing.categories, ...listing.protocols].join(' · ')}</p>
          </li>
        ))}
      </ul>
      {result?.next_cursor == null ? null : (
        <button type="button" onClick={() => void search(result.next_cursor ?? undefined)}>
          Show more
        </button>
      )}
    </Page>
  );
}
