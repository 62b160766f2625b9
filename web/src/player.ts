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
  const me = currentPlayer();
  localStorage.removeItem(KEY);
  if (me !== null) localStorage.removeItem(sessionsKey(me.id));
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

const sessionsKey = (playerId: string) => `bazaar.sessions.${playerId}`;

/** Negotiations opened in this browser, newest first: the list when the API offers none. */
export function rememberedSessions(playerId: string): string[] {
  try {
    const ids = JSON.parse(localStorage.getItem(sessionsKey(playerId)) ?? '[]') as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberSession(playerId: string, sessionId: string): void {
  const ids = [sessionId, ...rememberedSessions(playerId).filter((id) => id !== sessionId)];
  localStorage.setItem(sessionsKey(playerId), JSON.stringify(ids.slice(0, 100)));
}
