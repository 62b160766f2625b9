import { useEffect, useState } from 'preact/hooks';
import { PAGES, matchPage, type PageName } from '../../src/modules/web/web.pages';

export { PAGES, matchPage, type PageName };

const listeners = new Set<() => void>();
/** Counts the moves to a page (a link, Back, Forward): each one draws its page afresh. */
let visit = 0;
const notify = () => {
  visit++;
  for (const listener of listeners) listener();
};

// The app puts the scroll position back itself once a page has drawn what it showed before.
history.scrollRestoration = 'manual';

/** A check run before leaving the page (an unsaved receipt asks first); false stays. */
let leaveGuard: (() => boolean) | null = null;
export function guardLeaving(guard: (() => boolean) | null): void {
  leaveGuard = guard;
}
/** Drops `guard` if it is still the one in place (another may have taken its place since). */
export function releaseLeaving(guard: () => boolean): void {
  if (leaveGuard === guard) leaveGuard = null;
}

/**
 * What had focus in the page, as it can be found again: a link by its address, a button by its
 * `data-place` (one whose name changes meanwhile) or its name.
 */
const placeOf = (element: Element | null): string | null =>
  element === null || element.closest('main') === null
    ? null
    : element instanceof HTMLAnchorElement
      ? `a ${element.getAttribute('href') ?? ''}`
      : element instanceof HTMLButtonElement
        ? `button ${element.dataset.place ?? element.getAttribute('aria-label') ?? element.textContent}`
        : null;

/** Where the page was left: its scroll position and the link or button that had focus. */
function rememberScroll(): void {
  history.replaceState(
    {
      ...(history.state as object | null),
      scrollY: window.scrollY,
      focus: placeOf(document.activeElement),
    },
    '',
  );
}

/**
 * Back on a page whose place was restored: focus returns to the link or button that had it when
 * the page was left (the one that led away), rather than to a heading far above the view.
 */
export function restoreFocus(): void {
  const focus = (history.state as { focus?: unknown } | null)?.focus;
  if (typeof focus !== 'string') return;
  const element = [...document.querySelectorAll<HTMLElement>('main a, main button')].find(
    (candidate) => placeOf(candidate) === focus,
  );
  element?.focus({ preventScroll: true });
}

/** Where an entry stands in this tab's history. */
const indexOf = (state: unknown): number => {
  const index = (state as { index?: unknown } | null)?.index;
  return typeof index === 'number' ? index : 0;
};
// An entry the app did not make (loaded by the browser) is the newest of the tab's history.
if (typeof (history.state as { index?: unknown } | null)?.index !== 'number') {
  history.replaceState({ ...(history.state as object | null), index: history.length - 1 }, '');
}
let currentIndex = indexOf(history.state);
/** Set while the browser is being sent back to the entry the guard refused to leave. */
let returning = false;

// The browser's Back and Forward move before the app hears of it: when the page left is guarded
// and its holder chooses to stay, the browser is sent back to it, and the page never changed.
window.addEventListener('popstate', (event) => {
  const index = indexOf(event.state);
  if (returning) {
    returning = false;
    currentIndex = index;
    return;
  }
  if (leaveGuard !== null && !leaveGuard()) {
    // An entry without a known place (index equal) cannot be stepped back from: go(0) would
    // reload. The page stays as it is either way.
    if (index !== currentIndex) {
      returning = true;
      history.go(currentIndex - index);
    }
    return;
  }
  leaveGuard = null;
  currentIndex = index;
  notify();
});

/** The app page this one was reached from by a link, if any (for "Back to results"). */
let cameFrom: string | null = null;
export const previousPage = () => cameFrom;

/** Moves to another page of the app without reloading it. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (leaveGuard !== null && !leaveGuard()) return;
  leaveGuard = null;
  rememberScroll();
  cameFrom = location.pathname + location.search;
  if (options.replace === true) history.replaceState({ index: currentIndex }, '', to);
  else history.pushState({ index: ++currentIndex }, '', to);
  window.scrollTo(0, 0);
  notify();
}

/** The scroll position this history entry had when it was left, for a page to restore. */
export function savedScroll(): number | null {
  const y = (history.state as { scrollY?: unknown } | null)?.scrollY;
  return typeof y === 'number' ? y : null;
}

/** Replaces the query string of the current page (search-as-you-type keeps it shareable). */
export function setQuery(params: Record<string, string>): void {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== ''));
  const text = query.toString();
  history.replaceState(history.state, '', `${location.pathname}${text === '' ? '' : `?${text}`}`);
}

export function useLocation(): {
  path: string;
  query: URLSearchParams;
  hash: string;
  visit: number;
} {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => {
      setVersion((version) => version + 1);
    };
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return {
    path: location.pathname,
    query: new URLSearchParams(location.search),
    hash: location.hash,
    visit,
  };
}

// Links to the app's own pages move without a reload; links elsewhere (/docs) load normally.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest('a');
  if (anchor === null || anchor === undefined) return;
  if (anchor.target !== '' || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || matchPage(url.pathname) === null) return;
  // A link to a spot on this page (the skip link) is the browser's to follow.
  if (url.pathname === location.pathname && url.search === location.search && url.hash !== '') {
    return;
  }
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
