import { once } from 'node:events';
import type { WebSocket } from 'ws';

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
