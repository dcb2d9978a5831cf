import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A list page's `?q=` (set by the quick search): calls `apply` with it on arrival and whenever it
 * changes, so "jump to channel X" opens the channel list filtered to X.
 */
export function useJumpQuery(apply: (q: string) => void): void {
  const [params] = useSearchParams();
  const q = params.get('q');
  useEffect(() => {
    if (q) apply(q);
    // apply is a fresh closure each render; only a new q should re-run it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);
}
