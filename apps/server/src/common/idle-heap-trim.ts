import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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
