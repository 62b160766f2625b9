import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { catalogProblems, isFirstParty } from '../../src/modules/catalog/catalog.check.js';
import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import type { ListingEntry } from '../../src/modules/catalog/catalog.schemas.js';

/** The SPDX licence list, as the `spdx-license-ids` package publishes it (deprecated ids left out). */
const SPDX_IDS = new Set(createRequire(import.meta.url)('spdx-license-ids') as string[]);

// The data check: the shipped catalog as the loader reads it (schema, unique ids, names and
// aliases, categories of the taxonomy, successors that exist), then the editorial rules.
describe('catalog data', () => {
  const entries = loadCatalogFile();

  it('should pass every rule of the data check', () => {
    expect(catalogProblems(entries, SPDX_IDS)).toEqual([]);
  });

  it('should be sorted by id, so that a change shows as one place in a diff', () => {
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort());
  });
});

describe('catalog data check', () => {
  const [sample] = loadCatalogFile().filter((entry) => entry.id === 'qdrant');
  const listing = (change: (entry: ListingEntry) => void) => {
    const entry = structuredClone(sample) as ListingEntry;
    change(entry);
    return entry;
  };
  const problems = (entry: ListingEntry) => catalogProblems([entry], SPDX_IDS);

  it('should reject a licence that is not an SPDX id, or one that does not fit its kind', () => {
    expect(problems(listing((entry) => (entry.provenance.license = 'Apache 2'))).join()).toContain(
      'not an SPDX licence id',
    );
    expect(problems(listing((entry) => (entry.provenance.license = 'AGPL-3.0'))).join()).toContain(
      'not an SPDX licence id',
    );
    expect(
      problems(
        listing((entry) => {
          entry.provenance.license = 'BUSL-1.1';
          entry.provenance.license_kind = 'open_source';
        }),
      ).join(),
    ).toContain('does not make it open_source');
  });

  it('should accept first-party pages and reject second-hand ones', () => {
    const entry = listing(() => undefined);
    expect(entry.repository_url).toBe('https://github.com/qdrant/qdrant');
    for (const url of [
      'https://qdrant.tech/documentation/',
      'https://github.com/qdrant/qdrant-client',
      'https://pypi.org/project/qdrant-client/',
      'https://www.npmjs.com/package/@qdrant/js-client-rest',
    ])
      expect(isFirstParty(entry, url), url).toBe(true);
    for (const url of [
      'https://github.com/someone/qdrant',
      'https://aur.archlinux.org/packages/qdrant',
      'https://anaconda.org/someone/qdrant',
      'https://medium.com/@someone/qdrant',
      'https://en.wikipedia.org/wiki/Qdrant',
      'https://example-blog.com/qdrant',
    ])
      expect(isFirstParty(entry, url), url).toBe(false);
    expect(
      problems(listing((entry) => entry.sources?.push('https://dev.to/someone/qdrant'))).join(),
    ).toContain('not first-party');
  });

  it('should reject praise in a summary and a limitation that says nothing', () => {
    const praised = listing((entry) => (entry.summary = 'The best vector database.'));
    expect(problems(praised).join()).toContain('summary praises ("best")');
    const empty = listing((entry) => (entry.limitations = ['   ']));
    expect(problems(empty).join()).toContain('a limitation says nothing');
  });

  it('should want connection details for an MCP server', () => {
    const server = listing((entry) => {
      entry.categories = ['mcp-server'];
      entry.connection = null;
    });
    expect(problems(server)).toEqual([
      'qdrant: an MCP server without connection details (packages or remotes)',
    ]);
    const connected = listing((entry) => {
      entry.categories = ['mcp-server'];
      entry.connection = {
        packages: [],
        remotes: [{ transport: 'streamable-http', url: 'https://mcp.qdrant.tech/mcp' }],
      };
    });
    expect(problems(connected)).toEqual([]);
  });
});
