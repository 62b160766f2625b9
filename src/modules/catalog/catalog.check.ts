// The editorial rules of the catalog data, beyond what the loader enforces at start-up.

import type { ListingEntry } from './catalog.schemas.js';

/** Words a summary states as fact never need: they praise instead of saying what it does. */
const SUPERLATIVES =
  /\b(best|best-in-class|leading|industry-leading|powerful|blazing(ly)?|revolutionary|cutting-edge|world-class|seamless(ly)?|effortless(ly)?|ultimate|state-of-the-art|game-changing|next-generation|unparalleled|unmatched|lightning-fast|magical)\b/i;

/** Licences that let you read the source but are not open source (fair source included). */
export const SOURCE_AVAILABLE = new Set([
  'BUSL-1.1',
  'Elastic-2.0',
  'SSPL-1.0',
  'FSL-1.1-ALv2',
  'FSL-1.1-MIT',
  'PolyForm-Noncommercial-1.0.0',
  'PolyForm-Small-Business-1.0.0',
  'CC-BY-NC-4.0',
  'CC-BY-NC-SA-4.0',
]);

/** Hosts that only ever carry second-hand accounts of a project. */
const SECOND_HAND_HOSTS = [
  'aur.archlinux.org',
  'anaconda.org',
  'medium.com',
  'dev.to',
  'wikipedia.org',
  'substack.com',
  'hashnode.dev',
  'reddit.com',
  'news.ycombinator.com',
  'stackoverflow.com',
  'youtube.com',
  'twitter.com',
  'x.com',
  'linkedin.com',
  'docsearch.algolia.com',
];

/** Where a project's own code lives: a source there must be under the project's own account. */
const CODE_HOSTS = new Set([
  'github.com',
  'gitlab.com',
  'bitbucket.org',
  'codeberg.org',
  'huggingface.co',
]);

/** Official package registries: a page for the project's package is first-party. */
const REGISTRY_PAGES: [host: string, path: RegExp][] = [
  ['www.npmjs.com', /^\/package\//],
  ['npmjs.com', /^\/package\//],
  ['pypi.org', /^\/project\//],
  ['crates.io', /^\/crates\//],
  ['pkg.go.dev', /^\/./],
  ['hub.docker.com', /^\/(r|_)\//],
  ['rubygems.org', /^\/gems\//],
  ['www.nuget.org', /^\/packages\//],
  ['packagist.org', /^\/packages\//],
  ['central.sonatype.com', /^\/artifact\//],
  ['marketplace.visualstudio.com', /^\/items/],
  ['pypi.python.org', /^\/pypi\//],
  ['docs.rs', /^\/./],
];

/** Suffixes under which each sub-domain belongs to a different owner. */
const SHARED_SUFFIXES = [
  'github.io',
  'gitlab.io',
  'readthedocs.io',
  'readthedocs.org',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'gitbook.io',
  'notion.site',
  'co.uk',
  'com.au',
  'co.jp',
];

const hostOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, '');

/** The part of a host its owner registered: `docs.example.com` → `example.com`. */
function siteOf(host: string): string {
  const labels = host.split('.');
  const shared = SHARED_SUFFIXES.some((suffix) => host.endsWith(`.${suffix}`));
  return labels.slice(shared ? -3 : -2).join('.');
}

/** `github.com/owner` for a page on a code host, else undefined. */
function accountOf(url: string): string | undefined {
  const { hostname, pathname } = new URL(url);
  const host = hostname.toLowerCase().replace(/^www\./, '');
  if (host === 'raw.githubusercontent.com')
    return `github.com/${pathname.split('/')[1]?.toLowerCase()}`;
  if (!CODE_HOSTS.has(host)) return undefined;
  return `${host}/${pathname.split('/')[1]?.toLowerCase() ?? ''}`;
}

const letters = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The name a site or an account goes by: `openai` for `platform.openai.com` and `github.com/openai`. */
function brandOf(url: string): string {
  const account = accountOf(url);
  if (account !== undefined) return letters(account.split('/')[1] ?? '');
  return letters(siteOf(hostOf(url)).split('.')[0] ?? '');
}

/**
 * Whether a page is first-party for a listing: on the site of its homepage or documentation, or
 * on a site or code-host account under the same name as those or its repository's account
 * (`learn.microsoft.com` and `github.com/microsoft` for `microsoft.github.io/autogen`), or under
 * its publisher's name; or the page of a package on an official registry.
 */
export function isFirstParty(entry: ListingEntry, url: string): boolean {
  const host = hostOf(url);
  if (SECOND_HAND_HOSTS.some((bad) => host === bad || host.endsWith(`.${bad}`))) return false;
  const { pathname } = new URL(url);
  if (
    REGISTRY_PAGES.some(
      ([registry, path]) => hostOf(`https://${registry}`) === host && path.test(pathname),
    )
  )
    return true;
  const own = [entry.homepage_url, entry.documentation_url, entry.repository_url].filter(
    (value): value is string => value !== null,
  );
  const account = accountOf(url);
  const owner = account?.split('/')[1];
  if (own.some((page) => accountOf(page)?.split('/')[1] === owner && owner !== undefined))
    return true;
  if (
    account === undefined &&
    own.some((page) => accountOf(page) === undefined && siteOf(hostOf(page)) === siteOf(host))
  )
    return true;
  const brand = brandOf(url);
  if (brand.length < 4) return false;
  const publisher = letters(entry.provenance.publisher);
  return (
    own.some((page) => {
      const theirs = brandOf(page);
      if (theirs.length < 4) return false;
      // An account may add to the name (`deepseek-ai`); a site must have it exactly.
      return account === undefined
        ? brand === theirs
        : brand.includes(theirs) || theirs.includes(brand);
    }) || publisher.includes(brand)
  );
}

/**
 * The problems of a catalog's data, one readable line each (empty when it passes): licences
 * (`spdxIds`: the valid SPDX licence ids), first-party sources, summaries without praise,
 * limitations that say something, and MCP servers with their connection details.
 */
export function catalogProblems(
  entries: readonly ListingEntry[],
  spdxIds: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    const problem = (text: string) => problems.push(`${entry.id}: ${text}`);
    const { license, license_kind: kind } = entry.provenance;
    if (license !== null && !spdxIds.has(license))
      problem(`licence "${license}" is not an SPDX licence id`);
    if (
      license !== null &&
      kind !== (SOURCE_AVAILABLE.has(license) ? 'source_available' : 'open_source')
    )
      problem(`licence ${license} does not make it ${kind}`);
    for (const url of [...(entry.sources ?? []), entry.provenance.source_url]) {
      if (!isFirstParty(entry, url)) problem(`source ${url} is not first-party`);
    }
    const superlative = SUPERLATIVES.exec(entry.summary);
    if (superlative !== null) problem(`summary praises ("${superlative[0]}")`);
    if (entry.limitations.some((text) => text.trim().length < 10))
      problem('a limitation says nothing');
    const isServer = entry.categories.includes('mcp-server');
    const { connection } = entry;
    if (
      isServer &&
      (connection == null || connection.packages.length + connection.remotes.length === 0)
    )
      problem('an MCP server without connection details (packages or remotes)');
  }
  return problems;
}
