import { withoutTrailingSlashes } from '../../http/paths.js';

/**
 * The web app's pages: the one list that both the server (which answers each with the app) and
 * the app's router (which draws it) read. Plain data, so the browser bundle can import it too.
 */
export const PAGES = {
  home: '/',
  catalog: '/catalog',
  listing: '/catalog/:id',
  newRequest: '/requests/new',
  myRequest: '/requests/mine',
  play: '/play',
  negotiations: '/play/negotiations',
  negotiation: '/play/negotiations/:id',
  account: '/play/account',
  leaderboard: '/leaderboard',
} as const;

export type PageName = keyof typeof PAGES;

/** The page a path shows and its named parts (`/catalog/:id` → `{ id }`), or null. */
export function matchPage(path: string): { page: PageName; params: Record<string, string> } | null {
  const trimmed = withoutTrailingSlashes(path);
  for (const [page, pattern] of Object.entries(PAGES) as [PageName, string][]) {
    const names: string[] = [];
    const source = pattern.replace(/:(\w+)/g, (_all, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const found = new RegExp(`^${source}$`).exec(trimmed);
    if (found === null) continue;
    try {
      const params = Object.fromEntries(
        names.map((name, i) => [name, decodeURIComponent(found[i + 1] ?? '')]),
      );
      return { page, params };
    } catch {
      return null; // a malformed %-escape names no page
    }
  }
  return null;
}
