import { useEffect, useState } from 'preact/hooks';

/** The signed-in player, kept in this browser (localStorage) until "Sign out". */
export interface Me {
  id: string;
  username: string;
  key: string;
}

const KEY = 'bazaar.player';
/** Why the player was last signed out without asking, for every tab's sign-in form to say. */
const REASON = 'bazaar.signed-out-because';
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
// Signing in or out in another tab of this browser changes this one too.
window.addEventListener('storage', (event) => {
  if (event.key === KEY || event.key === REASON || event.key === null) notify();
});

export function currentPlayer(): Me | null {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Me | null;
    return stored !== null && typeof stored.key === 'string' ? stored : null;
  } catch {
    return null;
  }
}

export function signOutReason(): string {
  try {
    return localStorage.getItem(REASON) ?? '';
  } catch {
    return '';
  }
}

export function signIn(me: Me): void {
  localStorage.removeItem(REASON);
  localStorage.setItem(KEY, JSON.stringify(me));
  notify();
}

/** Forgets the key; `reason` when it happens without the player asking (written first). */
export function forget(reason = ''): void {
  if (reason === '') localStorage.removeItem(REASON);
  else localStorage.setItem(REASON, reason);
  localStorage.removeItem(KEY);
  notify();
}

export function usePlayer(): Me | null {
  const [me, setMe] = useState(currentPlayer);
  useEffect(() => {
    const listener = () => {
      setMe(currentPlayer());
    };
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return me;
}
