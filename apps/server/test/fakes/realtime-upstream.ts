import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface RealtimeHandshake {
  url: string;
  headers: IncomingMessage['headers'];
}

/**
 * OpenAI's Realtime API over WebSocket: `session.created` on connect, and for each
 * `response.create` a text delta then `response.done` carrying usage (20 in, 10 out); a
 * `test.vad` starts one the way server VAD does, which `response.cancel` ends early (20 in, 0 out);
 * a `response.create` with `response.metadata.test_delay_ms` is answered that long after its `response.created`.
 * A key listed in `refuse` gets its handshake answered with that HTTP status.
 */
export class FakeRealtime {
  private server: Server;
  private wss = new WebSocketServer({ noServer: true });
  url = '';
  readonly handshakes: RealtimeHandshake[] = [];
  readonly received: unknown[] = [];
  readonly refuse = new Map<string, number>();

  constructor() {
    this.server = createServer((_req, res) => res.writeHead(404).end());
    this.server.on('upgrade', (req, socket, head) => {
      this.handshakes.push({ url: req.url ?? '', headers: req.headers });
      const key = String(req.headers.authorization ?? req.headers['api-key'] ?? '').replace(/^Bearer /, '');
      const status = this.refuse.get(key);
      if (status) {
        const body = JSON.stringify({ error: { message: `fake refusal ${status}`, type: 'server_error' } });
        socket.end(`HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.session(ws, new URL(req.url ?? '/', 'http://x').searchParams));
    });
  }

  private session(ws: WebSocket, params: URLSearchParams) {
    const send = (event: Record<string, unknown>) => ws.send(JSON.stringify({ event_id: `evt_${Math.random().toString(36).slice(2)}`, ...event }));
    send({ type: 'session.created', session: { id: 'sess_1', object: 'realtime.session', model: params.get('model') ?? params.get('deployment') } });
    let n = 0;
    const usage = (output: number) => ({ total_tokens: 20 + output, input_tokens: 20, output_tokens: output, input_token_details: { cached_tokens: 0, text_tokens: 20, audio_tokens: 0 }, output_token_details: { text_tokens: output, audio_tokens: 0 } });
    const cancelled = new Set<string>();
    const respond = (delayMs: number) => {
      const id = `resp_${++n}`;
      send({ type: 'response.created', response: { id, object: 'realtime.response', status: 'in_progress' } });
      const finish = () => {
        if (cancelled.has(id)) return send({ type: 'response.done', response: { id, object: 'realtime.response', status: 'cancelled', usage: usage(0) } });
        send({ type: 'response.output_text.delta', response_id: id, item_id: 'item_1', output_index: 0, content_index: 0, delta: 'Hello there' });
        send({ type: 'response.done', response: { id, object: 'realtime.response', status: 'completed', usage: usage(10) } });
      };
      if (delayMs) setTimeout(finish, delayMs);
      else finish();
    };
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString());
      this.received.push(event);
      // Test hooks: an upstream that hangs up cleanly with its own code, or drops the connection.
      if (event.type === 'test.close') return ws.close(4001, 'bye');
      if (event.type === 'test.drop') return ws.terminate();
      // Server VAD: upstream starts a response by itself (answered after a moment, so it can be cancelled).
      if (event.type === 'test.vad') return respond(100);
      if (event.type === 'response.cancel') return cancelled.add(event.response_id);
      if (event.type === 'response.create') respond(Number(event.response?.metadata?.test_delay_ms ?? 0));
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}
