import { useEffect } from 'react';

const EVERY_MS = 5_000;

/** Reloads a list every few seconds while a task on the page is still running, so progress moves on its own. */
export function useLiveReload(reload: () => void, running: boolean): void {
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, EVERY_MS);
    return () => clearInterval(timer);
  }, [reload, running]);
}
