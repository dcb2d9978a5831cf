import { once } from 'node:events';
import { WebSocket } from 'ws';

/** Collects a raw socket's events until it closes; `waitFor` polls the list (no fixed sleeps). */
export function collect(ws: WebSocket) {
  const events: Array<{ type: string; [k: string]: any }> = [];
  ws.on('message', (d) => events.push(JSON.parse(d.toString())));
  const closed = once(ws, 'close').then(([code]) => code as number);
  const waitFor = async (type: string, count = 1) => {
    for (let i = 0; i < 200 && events.filter((e) => e.type === type).length < count; i++) await new Promise((r) => setTimeout(r, 20));
    return events.filter((e) => e.type === type);
  };
  return { events, closed, waitFor };
}

/** A realtime socket to the gateway at `base` (its http:// URL) for a token key. */
export const dialRealtime = (base: string, key: string, model = 'test-model') =>
  new WebSocket(`${base.replace('http', 'ws')}/v1/realtime?model=${model}`, { headers: { authorization: `Bearer ${key}` } });

/** An open realtime session and the events it collects. */
export async function openRealtime(base: string, key: string) {
  const ws = dialRealtime(base, key);
  const events = collect(ws);
  await once(ws, 'open');
  return { ws, ...events };
}
