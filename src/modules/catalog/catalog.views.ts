// Stored rows as the listings and changes the API answers.

import type { Listing, ListingChange, ListingEntry } from './catalog.schemas.js';

export function listingOf(row: {
  document: string;
  created_at: string;
  updated_at: string;
}): Listing {
  const entry = JSON.parse(row.document) as ListingEntry;
  return {
    ...entry,
    aliases: entry.aliases ?? [],
    successor: entry.successor ?? null,
    sources: entry.sources ?? [entry.provenance.source_url],
    checked_at: entry.checked_at ?? entry.provenance.retrieved_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function changeOf(row: {
  id: number;
  listing_id: string;
  change: ListingChange['change'];
  fields: string;
  changed_at: string;
}): ListingChange {
  return {
    id: row.id,
    listing_id: row.listing_id,
    change: row.change,
    fields: JSON.parse(row.fields) as string[],
    changed_at: row.changed_at,
  };
}
