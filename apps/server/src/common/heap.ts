import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Lets V8's old generation grow only `percent` % beyond what survived the last full
 * collection before it collects again (V8 reads the flag at each sizing decision). Under a
 * burst the default growth lets garbage pile up to two or three times the live heap; a tight
 * bound keeps resident memory near the live size for a few more, mostly concurrent, collections.
 * 0 keeps V8's own heuristics.
 */
export function boundHeapGrowth(percent: number): void {
  if (percent > 0 && boundHelps()) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}

/**
 * The bound pays on V8 before 13 (Node 20: a churning old space of 245 MB kept at 120 MB). On V8 13
 * (Node 24) the same churn peaks at 70 or 180 MB from run to run with or without the flag, so there
 * it is left alone.
 */
export function boundHelps(v8Version = process.versions.v8): boolean {
  return Number(v8Version.split('.')[0]) < 13;
}

/** V8's full collection, exposed at run time (no command-line flag needed). */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * After a burst of traffic V8 keeps its grown heap for a long time. One full
 * collection once the server has been idle for a while returns the empty pages
 * to the system (RSS falls back towards the idle size); busy servers never pay it.
 */
export function trimHeapWhenIdle(server: Pick<Server, 'on' | 'off'>, idleMs = 5_000, gc: () => void = exposedGc()): () => void {
  let requests = 0;
  let trimmed = true;
  const count = () => {
    requests++;
    trimmed = false;
  };
  server.on('request', count);
  const timer = setInterval(() => {
    if (requests === 0 && !trimmed) {
      trimmed = true;
      gc();
    }
    requests = 0;
  }, idleMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', count);
  };
}
