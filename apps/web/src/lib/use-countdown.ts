import { useEffect, useState } from 'react';

/** Seconds left of a running countdown (30 s for mails), and a starter. */
export function useCountdown(seconds = 30) {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);
  return { left, start: () => setLeft(seconds), stop: () => setLeft(0) };
}
