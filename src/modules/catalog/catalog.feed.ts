import type { Listing, ListingChange } from './catalog.schemas.js';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** `Deprecated; replaced by x.`: a listing's lifecycle when it is not simply active. */
function lifecycle(listing: Listing): string {
  if (listing.status === 'active') return '';
  const status = `${listing.status[0]?.toUpperCase() ?? ''}${listing.status.slice(1)}`;
  return listing.successor === null
    ? `${status}. `
    : `${status}; replaced by ${listing.successor}. `;
}

/**
 * An Atom feed (RFC 4287) of added and changed listings, newest first: one entry per change,
 * linking to the listing in the API, with its kind, categories and status as Atom categories.
 */
export function atomFeed(
  baseUrl: string,
  changes: readonly (ListingChange & { listing: Listing })[],
): string {
  const self = `${baseUrl}/api/catalog/feed.atom`;
  const updated = changes[0]?.changed_at ?? new Date(0).toISOString();
  const entries = changes.map((change) => {
    const url = `${baseUrl}/api/catalog/${encodeURIComponent(change.listing_id)}`;
    const what =
      change.change === 'added' ? 'Added to the catalog.' : `Changed: ${change.fields.join(', ')}.`;
    return [
      '  <entry>',
      `    <id>${escapeXml(`${url}#change-${change.id}`)}</id>`,
      `    <title>${escapeXml(`${change.listing.name} (${change.change})`)}</title>`,
      `    <updated>${change.changed_at}</updated>`,
      `    <link rel="alternate" type="application/json" href="${escapeXml(url)}"/>`,
      ...[change.listing.kind, ...change.listing.categories, `status:${change.listing.status}`].map(
        (term) => `    <category term="${escapeXml(term)}"/>`,
      ),
      `    <summary>${escapeXml(`${what} ${lifecycle(change.listing)}${change.listing.summary}`)}</summary>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(self)}</id>`,
    '  <title>Bazaar catalog: added and changed listings</title>',
    `  <updated>${updated}</updated>`,
    '  <author><name>Bazaar</name></author>',
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
