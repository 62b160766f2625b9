import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener('popstate', notify);

/** Moves to another page of the app without reloading it. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace === true) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

/** Replaces the query string of the current page (search-as-you-type keeps it shareable). */
export function setQuery(params: Record<string, string>): void {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== ''));
  const text = query.toString();
  history.replaceState(null, '', `${location.pathname}${text === '' ? '' : `?${text}`}`);
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => {
      setVersion((version) => version + 1);
    };
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** The app's own paths; links elsewhere (/docs, /openapi.json) load normally. */
const APP_PATH = /^\/(?:$|catalog\/|requests\/|play(?:\/|$)|leaderboard$)/;

document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest('a');
  if (
    anchor === null ||
    anchor === undefined ||
    anchor.target !== '' ||
    anchor.hasAttribute('download')
  )
    return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !APP_PATH.test(url.pathname)) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});

export function Link(props: { href: string; class?: string; children: ComponentChildren }) {
  return (
    <a href={props.href} class={props.class}>
      {props.children}
    </a>
  );
}

/** Matches `/catalog/:id`-style patterns; returns the named parts or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:(\w+)/g, (_all, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${source}/?$`).exec(path);
  if (found === null) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1] ?? '')]));
}
