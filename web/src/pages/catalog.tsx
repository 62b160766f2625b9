import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { listCategories, searchCatalog, type Listing, type SearchResult } from '../api/operations';
import { Alert, Page, RetryAlert } from '../components/ui';
import { restoreFocus, savedScroll, setQuery, useLocation } from '../router';
import { licenceKindText, licenceText, lifecycleText, problemText } from '../words';

type Facet = 'kind' | 'category' | 'protocol' | 'status' | 'license_kind';
type Filters = Record<'q' | Facet, string>;

/**
 * The results shown for this address, kept for the browser tab so that Back from a listing shows
 * the same list ("Show more" pages included) and scrolls to where the reader was.
 */
const remembered = {
  key: () => `bazaar.catalog.${location.search}`,
  load(): SearchResult | null {
    try {
      return JSON.parse(sessionStorage.getItem(this.key()) ?? 'null') as SearchResult | null;
    } catch {
      return null;
    }
  },
  save(result: SearchResult) {
    try {
      sessionStorage.setItem(this.key(), JSON.stringify(result));
    } catch {
      // Storage full or refused: Back then searches again, which is only slower.
    }
  },
};

const PAGE_SIZE = 24;

export function CatalogPage() {
  const { query } = useLocation();
  const [filters, setFilters] = useState<Filters>({
    q: query.get('q') ?? '',
    kind: query.get('kind') ?? '',
    category: query.get('category') ?? '',
    protocol: query.get('protocol') ?? '',
    status: query.get('status') ?? '',
    license_kind: query.get('license_kind') ?? '',
  });
  // Only an entry of the history that was left before (Back, Forward) shows what it showed.
  const [result, setResult] = useState<SearchResult | null>(() =>
    savedScroll() === null ? null : remembered.load(),
  );
  const [error, setError] = useState('');
  const [searching, setSearching] = useState(false);
  // Whether asking again may help: not for a query or filter the catalog refuses.
  const [retryable, setRetryable] = useState(false);
  const latest = useRef(0);
  const restoring = useRef(result !== null);
  // What the last search asked for, to ask again after a failure ("Try again").
  const lastCursor = useRef<string | undefined>(undefined);
  // After "Show more": how many listings were shown before, so focus moves to the first new one.
  const firstNew = useRef<number | null>(null);

  const search = async (cursor?: string) => {
    const ticket = ++latest.current;
    lastCursor.current = cursor;
    setSearching(true);
    const asked = {
      ...(filters.q.trim() === '' ? {} : { q: filters.q }),
      ...(filters.kind === '' ? {} : { kind: filters.kind as 'tool' | 'agent' | 'framework' }),
      ...(filters.category === '' ? {} : { category: filters.category }),
      ...(filters.protocol === '' ? {} : { protocol: filters.protocol }),
      ...(filters.status === '' ? {} : { status: filters.status as Listing['status'] }),
      ...(filters.license_kind === ''
        ? {}
        : { license_kind: filters.license_kind as Listing['provenance']['license_kind'] }),
    };
    try {
      // A chosen filter's list offers what choosing another value instead would find: the
      // service counts each facet without its own filter.
      const page = await searchCatalog({
        ...asked,
        limit: PAGE_SIZE,
        ...(cursor === undefined ? {} : { cursor }),
      });
      if (ticket !== latest.current) return; // a newer search has started: drop this answer
      setError('');
      setResult((before) => {
        const next =
          cursor === undefined || before === null
            ? page
            : { ...page, facets: before.facets, items: [...before.items, ...page.items] };
        remembered.save(next);
        return next;
      });
    } catch (failure) {
      if (ticket !== latest.current) return;
      // A filter the catalog does not take can only come from a link (the lists offer none).
      const facet =
        failure instanceof ApiError && failure.code === 'validation_error'
          ? failure.details.map((detail) => detail.field).find((field) => field in filters)
          : undefined;
      setRetryable(!(failure instanceof ApiError && failure.code === 'validation_error'));
      setError(
        facet === undefined || facet === 'q'
          ? problemText(failure)
          : `This link asks for a ${facet === 'license_kind' ? 'licence kind' : facet} the catalog does not know (“${filters[facet as Facet]}”). Choose one from the list, or clear it.`,
      );
      // Listings of another search must not stand under this one's words as if they matched.
      if (cursor === undefined) setResult(null);
    } finally {
      if (ticket === latest.current) setSearching(false);
    }
  };

  // A link naming a category by an old name or a synonym (`api-tools`, `transcription`) shows
  // the category it stands for, selected, as the search already finds its listings.
  useEffect(() => {
    const named = filters.category;
    if (named === '') return;
    listCategories().then(
      ({ items: categories }) => {
        const key = named.trim().toLowerCase();
        const meant = categories.find(({ id, aliases }) => id === key || aliases.includes(key));
        if (meant === undefined || meant.id === named) return;
        setFilters((now) => (now.category === named ? { ...now, category: meant.id } : now));
      },
      () => undefined,
    );
  }, []);

  useEffect(() => {
    const from = firstNew.current;
    if (from === null || result === null || result.items.length <= from) return;
    firstNew.current = null;
    document.querySelectorAll<HTMLAnchorElement>('.cards > li h2 a')[from]?.focus();
  }, [result?.items.length]);

  // Results as you type, after a short pause; on Back, the remembered list at the old scroll.
  useEffect(() => {
    setQuery(filters);
    if (restoring.current) {
      restoring.current = false;
      const y = savedScroll();
      if (y !== null) {
        requestAnimationFrame(() => {
          window.scrollTo(0, y);
          restoreFocus();
        });
      }
      return undefined;
    }
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

  const options = (facet: Facet): [string, number][] => {
    const counted = Object.entries(result?.facets[facet] ?? {}).sort(([a], [b]) =>
      a.localeCompare(b),
    );
    const selected = filters[facet];
    return selected === '' || counted.some(([value]) => value === selected)
      ? counted
      : [[selected, 0], ...counted];
  };

  /** Values in words where the API's are codes (`open_source`). */
  const wordsFor: Partial<Record<Facet, Record<string, string>>> = {
    status: lifecycleText,
    license_kind: licenceKindText,
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
            {`${wordsFor[facet]?.[value] ?? value} (${count})`}
          </option>
        ))}
      </select>
    </div>
  );

  /**
   * A search from a button in the answer (a suggestion, a related category, clearing the
   * filters), which the new answer replaces: focus goes to the search box rather than being lost.
   */
  const searchAgain = (next: Filters) => {
    setFilters(next);
    document.getElementById('search')?.focus();
  };

  const items = result?.items ?? [];
  const q = filters.q.trim();
  const request = result?.capability_request?.body.task ?? q;
  // A filter besides the words: clearing them is a way out of an empty answer.
  const filtered = [
    filters.kind,
    filters.category,
    filters.protocol,
    filters.status,
    filters.license_kind,
  ].some((value) => value !== '');
  const requestLink = `/requests/new?kind=capability${request === '' ? '' : `&task=${encodeURIComponent(request)}`}`;

  return (
    <Page title="Find a tool, agent or framework">
      <p class="lead">
        Documented capabilities with where their facts come from, how authentication works and their
        honest limits.
      </p>
      <form class="search" role="search" onSubmit={(event) => event.preventDefault()}>
        <div class="field search-box">
          <label for="search">Describe what you need, or name a tool</label>
          <input
            id="search"
            type="search"
            value={filters.q}
            maxLength={300}
            autocomplete="off"
            placeholder="e.g. transcribe audio files offline"
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
      {error === '' ? null : retryable ? (
        <RetryAlert focusTo="search" onRetry={() => void search(lastCursor.current)}>
          {error}
        </RetryAlert>
      ) : (
        <Alert>{error}</Alert>
      )}
      <p class="result-count" role="status">
        {result === null || searching
          ? error === ''
            ? 'Searching…'
            : ''
          : items.length === 0
            ? 'No listing matches.'
            : `${result.total_is_estimate ? 'About ' : ''}${result.total} listing${result.total === 1 ? '' : 's'}`}
      </p>
      {result?.corrected_query == null ? null : (
        <p class="corrected">
          Showing results for <strong>{result.corrected_query}</strong>: nothing matched “{q}”.
        </p>
      )}
      {result !== null && (items.length === 0 || result.capability_request !== null) ? (
        <div class="empty">
          {/* The correction is already searched (said above): suggesting it again says nothing. */}
          {result.suggestions.every((text) => text === result.corrected_query) ? null : (
            <p>
              Try{' '}
              {result.suggestions
                .filter((text) => text !== result.corrected_query)
                .map((text, i) => (
                  <span key={text}>
                    {i === 0 ? '' : ', '}
                    <button
                      type="button"
                      class="link"
                      onClick={() => searchAgain({ ...filters, q: text })}
                    >
                      {text}
                    </button>
                  </span>
                ))}
              .
            </p>
          )}
          {result.related_categories.length === 0 ? null : (
            <p>
              Related categories:{' '}
              {result.related_categories.map(({ category, listings }, i) => (
                <span key={category}>
                  {i === 0 ? '' : ', '}
                  <button
                    type="button"
                    class="link"
                    onClick={() => searchAgain({ ...filters, q: '', category })}
                  >
                    {category}
                  </button>{' '}
                  ({listings})
                </span>
              ))}
              .
            </p>
          )}
          {items.length === 0 && filtered ? (
            <p>
              <button
                type="button"
                class="link"
                onClick={() =>
                  searchAgain({
                    ...filters,
                    kind: '',
                    category: '',
                    protocol: '',
                    status: '',
                    license_kind: '',
                  })
                }
              >
                Clear the filters
              </button>{' '}
              to search the whole catalog{filters.q.trim() === '' ? '' : ' for these words'}.
            </p>
          ) : null}
          <p>Not what you need? Tell us, and we will look for it.</p>
          <a class="button" href={requestLink}>
            Ask for this capability
          </a>
        </div>
      ) : null}
      <ul class="cards" aria-busy={searching}>
        {items.map((listing) => (
          <li key={listing.id} class="card">
            <h2>
              <a href={`/catalog/${listing.id}`}>{listing.name}</a>
            </h2>
            <p class="meta">
              <span class={`badge badge-${listing.kind}`}>{listing.kind}</span>
              {listing.status === 'active' ? null : (
                <span class="badge badge-warning">{lifecycleText[listing.status]}</span>
              )}
              <span class="badge">{licenceText(listing.provenance)}</span>
              <span class="badge">
                {listing.authentication.required ? 'needs credentials' : 'no credentials'}
              </span>
            </p>
            <p>{listing.summary}</p>
            <p class="tags">{[...listing.categories, ...listing.protocols].join(' · ')}</p>
          </li>
        ))}
      </ul>
      {result?.next_cursor == null ? null : (
        <button
          type="button"
          onClick={() => {
            firstNew.current = items.length;
            void search(result.next_cursor ?? undefined);
          }}
        >
          Show more
        </button>
      )}
    </Page>
  );
}
