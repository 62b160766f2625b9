/**
 * A path without its trailing slashes (`/api/players/` → `/api/players`), `/` kept whole. A loop,
 * not `/\/+$/`: on a path of thousands of slashes followed by another character, that pattern
 * retries from every slash, and one request could hold the process for a third of a second.
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end === path.length ? path : path.slice(0, end);
}
