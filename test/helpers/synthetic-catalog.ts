// Catalogs larger than the shipped one, for tests and benchmarks of large loads.

import { loadCatalogFile } from '../../src/modules/catalog/catalog.loader.js';
import type { ListingEntry } from '../../src/modules/catalog/catalog.schemas.js';

/** `size` listings: the real ones, then copies with their own ids and names. */
export function syntheticCatalog(size: number): ListingEntry[] {
  const real = loadCatalogFile();
  if (size <= real.length) return real.slice(0, size);
  return Array.from({ length: size }, (_, i) => {
    const base = real[i % real.length] as ListingEntry;
    if (i < real.length) return base;
    return {
      ...base,
      id: `${base.id}-${i}`,
      name: `${base.name} ${i}`,
      // An alias may not be another listing's id or name (the original's, here).
      aliases: base.aliases?.filter(
        (alias) => ![base.id, base.name.toLowerCase()].includes(alias.toLowerCase()),
      ),
      summary: `${base.summary.slice(0, 180)} (copy ${i})`,
    };
  });
}
