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
 * a `response.create` with `response.metadata.test_delay_ms` is answered that long after its
 * `response.created`, and with `test_created_delay_ms` its `response.created` comes that late;
 * one with `test_ignore` gets no answer at all.
 * As upstream does, a `response.create` in the default conversation while a response is active
 * there is rejected with an `error` event naming its `event_id` (`conversation: 'none'` responses
 * run beside it), and so is a `conversation.item.delete` (the fake keeps no items).
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
    /** The default conversation's response in progress: only one at a time. */
    let active: string | undefined;
    const reject = (event: { event_id?: string }, code: string, message: string) =>
      send({ type: 'error', error: { type: 'invalid_request_error', code, message, param: null, event_id: event.event_id ?? null } });
    const respond = (delayMs: number, createdDelayMs = 0, inConversation = true) => {
      const id = `resp_${++n}`;
      if (inConversation) active = id;
      const finish = () => {
        if (active === id) active = undefined;
        if (cancelled.has(id)) return send({ type: 'response.done', response: { id, object: 'realtime.response', status: 'cancelled', usage: usage(0) } });
        send({ type: 'response.output_text.delta', response_id: id, item_id: 'item_1', output_index: 0, content_index: 0, delta: 'Hello there' });
        send({ type: 'response.done', response: { id, object: 'realtime.response', status: 'completed', usage: usage(10) } });
      };
      const start = () => {
        send({ type: 'response.created', response: { id, object: 'realtime.response', status: 'in_progress' } });
        if (delayMs) setTimeout(finish, delayMs);
        else finish();
      };
      if (createdDelayMs) setTimeout(start, createdDelayMs);
      else start();
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
      if (event.type === 'conversation.item.delete') return reject(event, 'item_not_found', `Item with item_id '${event.item_id}' not found.`);
      if (event.type !== 'response.create') return;
      const inConversation = event.response?.conversation !== 'none';
      if (inConversation && active) {
        return reject(event, 'conversation_already_has_active_response', `Conversation already has an active response in progress: ${active}. Wait until the response is finished before creating a new one.`);
      }
      const metadata = event.response?.metadata ?? {};
      if (metadata.test_ignore) return;
      respond(Number(metadata.test_delay_ms ?? 0), Number(metadata.test_created_delay_ms ?? 0), inConversation);
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
