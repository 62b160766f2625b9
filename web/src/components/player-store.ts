import { useEffect, useState } from 'preact/hooks';

/** The signed-in player, kept in this browser until "Forget this key". */
export interface Me {
  id: string;
  username: string;
  key: string;
}

const KEY = 'bazaar.player';
const listeners = new Set<() => void>();

export function currentPlayer(): Me | null {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Me | null;
    return stored !== null && typeof stored.key === 'string' ? stored : null;
  } catch {
    return null;
  }
}

export function signIn(me: Me): void {
  localStorage.setItem(KEY, JSON.stringify(me));
  for (const listener of listeners) listener();
}

export function forget(): void {
  localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
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
