import { readFileSync } from 'node:fs';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { ListingEntry } from './catalog.schemas.js';

/** The catalog shipped with the service. */
export const CATALOG_DATA_FILE = new URL('./catalog.data.json', import.meta.url);

/** A data file that does not match the listing schema: names the entry and the field. */
export class CatalogDataError extends Error {
  override name = 'CatalogDataError';
}

const compile = (options: Options) =>
  addFormats
    .default(new Ajv({ strict: false, keywords: ['example'], ...options }))
    .compile<ListingEntry>(ListingEntry);

/** Made on first use: a start whose catalog file is unchanged checks nothing. */
function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** The listing schema: decides whether an entry is valid, and says why not. */
const exactCheck = lazily(() => compile({ allErrors: true }));

/** The longest `minLength` anywhere in a schema. */
const longestMinLength = (schema: unknown): number =>
  typeof schema !== 'object' || schema === null
    ? 0
    : Math.max(
        'minLength' in schema && typeof schema.minLength === 'number' ? schema.minLength : 0,
        ...Object.values(schema).map(longestMinLength),
      );

/**
 * The same schema checked in half the time: it stops at the first error and measures strings
 * in UTF-16 code units, not counting each string's characters (over a third of the exact
 * check). A string has at least as many code units as characters, so with no `minLength` above
 * 1 it only ever refuses more: an entry it refuses goes to the exact check, which decides.
 * (Its logger is off: the `unicode` option is reported as deprecated.)
 */
const quickCheck = lazily(() =>
  longestMinLength(ListingEntry) <= 1
    ? // Deprecated, not removed; were it removed, this check would count characters again.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      compile({ allErrors: false, unicode: false, logger: false })
    : undefined,
);

/** From this many entries the quick check saves more than compiling it costs. */
export const QUICK_CHECK_ENTRIES = 10_000;

/**
 * Checks every entry against the listing schema and the rules a schema cannot say: unique ids
 * and names; an alias never another listing's id or name; `none` among the schemes exactly
 * when no authentication is required (the others are then optional credentials); a `successor` only for a listing no longer active, naming
 * another listing of the file; `connection` only on MCP servers. The first bad entry stops the
 * load. (The data check, test/discovery/catalog-data.test.ts, holds the editorial rules.)
 */
export function parseCatalog(data: unknown): ListingEntry[] {
  if (!Array.isArray(data))
    throw new CatalogDataError('The catalog must be a JSON array of listings.');
  const validateEntry = exactCheck();
  const quick = data.length >= QUICK_CHECK_ENTRIES ? quickCheck() : undefined;
  const entries = data.map((entry: unknown, index) => {
    if (quick?.(entry) === true || validateEntry(entry)) return entry;
    const [error] = validateEntry.errors ?? [];
    const missing: unknown = error?.params.missingProperty;
    const path = (error?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    const field = typeof missing === 'string' ? [path, missing].filter(Boolean).join('.') : path;
    throw new CatalogDataError(
      `${label(entry, index)}: field "${field || '(entry)'}" ${error?.message ?? 'is invalid'}`,
    );
  });
  const ids = new Map(entries.map((entry) => [entry.id, entry]));
  const seenIds = new Set<string>();
  const seenNames = new Set<string>();
  /** Which listing each id and name (in lower case) belongs to. */
  const owners = new Map<string, string>();
  for (const [index, entry] of entries.entries()) {
    const fail = (field: string, problem: string) => {
      throw new CatalogDataError(`${label(entry, index)}: field "${field}" ${problem}`);
    };
    if (seenIds.has(entry.id)) fail('id', "repeats another entry's id");
    seenIds.add(entry.id);
    if (seenNames.has(entry.name.toLowerCase())) fail('name', "repeats another entry's name");
    seenNames.add(entry.name.toLowerCase());
    owners.set(entry.id, entry.id);
    owners.set(entry.name.toLowerCase(), entry.id);
    const { required, schemes } = entry.authentication;
    const saysNone = schemes.some((scheme) => scheme === 'none');
    // Not required: `none`, and the schemes that optional credentials use (e.g. a key for
    // higher limits). Required: never `none`.
    if (required === saysNone) {
      fail(
        'authentication.schemes',
        'must hold "none" exactly when authentication.required is false',
      );
    }
    if (entry.successor !== null) {
      if (entry.status === 'active') fail('successor', 'must be null while the status is active');
      if (entry.successor === entry.id || !ids.has(entry.successor))
        fail('successor', 'must be the id of another listing');
    }
    if (entry.connection != null && !entry.categories.includes('mcp-server'))
      fail('connection', 'is only for listings in the mcp-server category');
  }
  for (const [index, entry] of entries.entries()) {
    const seen = new Set<string>();
    for (const alias of entry.aliases ?? []) {
      const key = alias.toLowerCase();
      const owner = owners.get(key);
      if (seen.has(key) || (owner !== undefined && owner !== entry.id)) {
        throw new CatalogDataError(
          `${label(entry, index)}: field "aliases" repeats "${alias}", already ${seen.has(key) ? 'an alias of this entry' : `the id or name of "${owner}"`}`,
        );
      }
      seen.add(key);
    }
  }
  return entries;
}

const label = (entry: unknown, index: number) => `catalog entry ${index + 1}${describe(entry)}`;

function describe(entry: unknown): string {
  if (
    typeof entry === 'object' &&
    entry !== null &&
    'id' in entry &&
    typeof entry.id === 'string'
  ) {
    return ` ("${entry.id}")`;
  }
  return '';
}

export function loadCatalogFile(file: URL | string = CATALOG_DATA_FILE): ListingEntry[] {
  return catalogFromJson(readFileSync(file, 'utf8'));
}

/** A catalog file's text, parsed and checked like `loadCatalogFile`. */
export function catalogFromJson(text: string): ListingEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CatalogDataError(
      `The catalog file cannot be read as JSON: ${(error as Error).message}`,
    );
  }
  return parseCatalog(data);
}
