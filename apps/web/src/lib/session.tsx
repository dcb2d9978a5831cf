import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SiteStatus, User } from '@one-hub/contract';
import { api, onUnauthorized } from './api';

interface Session {
  user: User | null;
  status: SiteStatus | null;
  setUser(user: User | null): void;
  logout(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

function readStored<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

/** Signed-in user (localStorage `user`) and site status (`siteInfo`), with the spec's fallback to the stored copy. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<User | null>(() => readStored<User>('user'));
  const [status, setStatus] = useState<SiteStatus | null>(() => readStored<SiteStatus>('siteInfo'));

  const setUser = useCallback((next: User | null) => {
    if (next) localStorage.setItem('user', JSON.stringify(next));
    else localStorage.removeItem('user');
    setUserState(next);
  }, []);

  useEffect(() => onUnauthorized(() => setUser(null)), [setUser]);
  useEffect(() => {
    api<SiteStatus>('/api/status')
      .then((s) => {
        localStorage.setItem('siteInfo', JSON.stringify(s));
        localStorage.setItem('quota_per_unit', String(s.quota_per_unit));
        localStorage.setItem('display_in_currency', String(s.display_in_currency));
        setStatus(s);
      })
      .catch(() => undefined);
  }, []);

  const logout = useCallback(async () => {
    await api('/api/user/logout').catch(() => undefined);
    setUser(null);
  }, [setUser]);

  const value = useMemo(() => ({ user, status, setUser, logout }), [user, status, setUser, logout]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

export const isAdmin = (user: User | null) => (user?.role ?? 0) >= 10;
