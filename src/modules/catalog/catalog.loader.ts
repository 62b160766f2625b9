import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ListingEntry } from './catalog.schemas.js';

/** The catalog shipped with the service. */
export const CATALOG_DATA_FILE = new URL('./catalog.data.json', import.meta.url);

/** A data file that does not match the listing schema: names the entry and the field. */
export class CatalogDataError extends Error {
  override name = 'CatalogDataError';
}

const ajv = addFormats.default(new Ajv({ allErrors: true, strict: false, keywords: ['example'] }));
const validateEntry = ajv.compile<ListingEntry>(ListingEntry);

/**
 * Checks every entry against the listing schema and the rules a schema cannot say (unique ids
 * and names; `none` as the only scheme exactly when no authentication is required). The first
 * bad entry stops the load.
 */
export function parseCatalog(data: unknown): ListingEntry[] {
  if (!Array.isArray(data))
    throw new CatalogDataError('The catalog must be a JSON array of listings.');
  const ids = new Set<string>();
  const names = new Set<string>();
  return data.map((entry: unknown, index) => {
    const label = `catalog entry ${index + 1}${describe(entry)}`;
    if (!validateEntry(entry)) {
      const [error] = validateEntry.errors ?? [];
      const missing: unknown = error?.params.missingProperty;
      const path = (error?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
      const field = typeof missing === 'string' ? [path, missing].filter(Boolean).join('.') : path;
      throw new CatalogDataError(
        `${label}: field "${field || '(entry)'}" ${error?.message ?? 'is invalid'}`,
      );
    }
    if (ids.has(entry.id))
      throw new CatalogDataError(`${label}: field "id" repeats another entry's id`);
    if (names.has(entry.name.toLowerCase())) {
      throw new CatalogDataError(`${label}: field "name" repeats another entry's name`);
    }
    const { required, schemes } = entry.authentication;
    const saysNone = schemes.some((scheme) => scheme === 'none');
    if (required ? saysNone : schemes.length !== 1 || !saysNone) {
      throw new CatalogDataError(
        `${label}: field "authentication.schemes" must be ["none"] exactly when authentication.required is false`,
      );
    }
    ids.add(entry.id);
    names.add(entry.name.toLowerCase());
    return entry;
  });
}

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
