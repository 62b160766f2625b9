import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { getListing, type Listing } from '../api/operations';
import { Alert, Page, RetryAlert } from '../components/ui';
import { date } from '../format';
import { previousPage } from '../router';
import { Connection } from '../components/connection';
import { lifecycleText, licenceText, problemText } from '../words';

const verification: Record<Listing['provenance']['verification'], string> = {
  documented: 'Taken from public documentation',
  maintainer_confirmed: 'Confirmed by the maintainers',
  unverified: 'Not verified',
};

const schemeNames: Record<string, string> = {
  none: 'none',
  api_key: 'API key',
  bearer: 'bearer token',
  oauth2: 'OAuth 2',
  basic: 'HTTP basic',
  mtls: 'mutual TLS',
  other: 'other',
};

/**
 * The browser's Back rather than a new visit: the results come back as they were left (the same
 * list, scrolled where it was, focus on the listing's link).
 */
function BackToResults() {
  return (
    <a
      href="/catalog"
      onClick={(event) => {
        event.preventDefault();
        history.back();
      }}
    >
      Back to the results
    </a>
  );
}

export function ListingPage(props: { id: string }) {
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState('');
  const [missing, setMissing] = useState(false);
  // The replacement's name, once read: the id until then (or if it cannot be read).
  const [successorName, setSuccessorName] = useState<string | null>(null);
  // Asking again after a failure ("Try again") reads the listing again.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    getListing(props.id).then(setListing, (failure: unknown) => {
      // An address that is no listing's id at all was mangled or typed, not entered in a form.
      const broken = failure instanceof ApiError && failure.code === 'validation_error';
      setMissing(broken || (failure instanceof ApiError && failure.code === 'not_found'));
      setError(
        broken
          ? 'This link is broken or incomplete: no listing has this address.'
          : problemText(failure),
      );
    });
  }, [props.id, attempt]);
  const successor = listing?.successor ?? null;
  useEffect(() => {
    setSuccessorName(null);
    if (successor === null) return;
    getListing(successor).then(
      (found) => setSuccessorName(found.name),
      () => undefined,
    );
  }, [successor]);

  if (error !== '') {
    return (
      <Page title={missing ? 'Listing not found' : 'Listing unavailable'}>
        {missing ? (
          <Alert>{error}</Alert>
        ) : (
          <RetryAlert
            onRetry={() => {
              // "Loading listing…" until the answer; failing again, the alert is read out again.
              setError('');
              setAttempt((count) => count + 1);
            }}
          >
            {error}
          </RetryAlert>
        )}
        <p>
          <a href="/catalog">Search the catalog</a> ·{' '}
          <a href="/requests/new?kind=capability">Ask for a capability</a>
        </p>
      </Page>
    );
  }
  if (listing === null) return <Page title="Loading listing…">{null}</Page>;
  const { provenance, authentication } = listing;
  // Every page the facts come from, the provenance page first.
  const sources = [...new Set([provenance.source_url, ...listing.sources])];
  const aliases = listing.aliases;
  // "Back to the results" only for a reader who came from them; anyone else gets the catalog.
  const from = previousPage()?.split('?')[0];
  const fromResults = from === '/catalog';
  return (
    <Page title={listing.name}>
      {/* A long listing is left from its top as often as from its end. */}
      {fromResults ? (
        <p>
          <BackToResults />
        </p>
      ) : null}
      <p class="meta">
        <span class={`badge badge-${listing.kind}`}>{listing.kind}</span>
        {listing.version === null ? null : <span class="badge">version {listing.version}</span>}
        {listing.status === 'active' ? null : (
          <span class="badge badge-warning">{lifecycleText[listing.status]}</span>
        )}
      </p>
      {listing.successor === null ? null : (
        <p class="alert alert-warning">
          Replaced by{' '}
          <a href={`/catalog/${listing.successor}`}>{successorName ?? listing.successor}</a>.
        </p>
      )}
      <p class="lead">{listing.summary}</p>
      {aliases.length === 0 ? null : <p class="muted">Also known as {aliases.join(', ')}.</p>}
      <p>{listing.description}</p>
      <section aria-labelledby="uses">
        <h2 id="uses">What it is for</h2>
        <ul>
          {listing.use_cases.map((use) => (
            <li key={use}>{use}</li>
          ))}
        </ul>
      </section>
      <ul class="links">
        <li>
          <a href={listing.homepage_url} rel="noopener noreferrer">
            Homepage
          </a>
        </li>
        <li>
          <a href={listing.documentation_url} rel="noopener noreferrer">
            Documentation
          </a>
        </li>
        {listing.repository_url === null ? null : (
          <li>
            <a href={listing.repository_url} rel="noopener noreferrer">
              Source repository
            </a>
          </li>
        )}
      </ul>

      <section aria-labelledby="auth">
        <h2 id="auth">Authentication</h2>
        <p>
          {/* Not required: the tool asks for none of its own; the notes name what its services need. */}
          <strong>
            {authentication.required
              ? 'Credentials are required.'
              : 'It asks for no credentials of its own.'}
          </strong>
          {authentication.schemes.every((scheme) => scheme === 'none')
            ? null
            : ` Schemes: ${authentication.schemes.map((scheme) => schemeNames[scheme] ?? scheme).join(', ')}.`}
        </p>
        <p>{authentication.notes}</p>
      </section>

      {listing.connection == null ? null : <Connection connection={listing.connection} />}

      <section aria-labelledby="limits">
        <h2 id="limits">Limitations</h2>
        <ul>
          {listing.limitations.map((limit) => (
            <li key={limit}>{limit}</li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="provenance">
        <h2 id="provenance">Provenance</h2>
        <dl class="facts">
          <dt>Publisher</dt>
          <dd>{provenance.publisher}</dd>
          <dt>{sources.length === 1 ? 'Source' : 'Sources'}</dt>
          <dd>
            <ul class="plain">
              {sources.map((url) => (
                <li key={url}>
                  <a href={url} rel="noopener noreferrer">
                    {url}
                  </a>
                </li>
              ))}
            </ul>
          </dd>
          <dt>Licence</dt>
          <dd>{licenceText(provenance)}</dd>
          <dt>Status</dt>
          <dd>{lifecycleText[listing.status]}</dd>
          <dt>Checked</dt>
          <dd>{date(listing.checked_at)}</dd>
          <dt>Verification</dt>
          <dd>{verification[provenance.verification]}</dd>
          <dt>Categories</dt>
          <dd>{listing.categories.join(', ')}</dd>
          <dt>Protocols</dt>
          <dd>{listing.protocols.length === 0 ? 'none listed' : listing.protocols.join(', ')}</dd>
          <dt>Updated in the catalog</dt>
          <dd>{date(listing.updated_at)}</dd>
        </dl>
      </section>

      <p class="actions">
        <a
          class="button"
          href={`/requests/new?kind=correction&capability_id=${encodeURIComponent(listing.id)}`}
        >
          Report a correction
        </a>
        <a
          class="button button-quiet"
          href={`/requests/new?kind=pilot&capability_id=${encodeURIComponent(listing.id)}`}
        >
          Ask for a pilot
        </a>
        {fromResults ? <BackToResults /> : <a href="/catalog">Browse the catalog</a>}
      </p>
    </Page>
  );
}
