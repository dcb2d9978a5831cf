import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { ServerResponse } from 'node:http';
import { closeServer, FakeHttp, sendJson, type Received } from './fake-http.js';

/** The private places a careless upstream names in its errors. */
export const LEAKED_HOST = 'internal-llm.corp.local';
export const LEAKED_ADDRESS = '10.1.2.3:8000';
/** Names only an operator should ever see; none may reach a caller's answer. */
export const LEAK_MARKERS = [LEAKED_HOST, LEAKED_ADDRESS];

/** The credential a request carries, however its family sends it. */
function keyOf(req: IncomingMessage): string {
  const auth = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  return String(req.headers['mj-api-secret'] ?? req.headers['api-key'] ?? auth);
}

/**
 * A broken upstream of every task family and realtime: each answer is an error in the family's
 * own shape that names a private host, an IP:port and its own address, and echoes the key it was
 * sent (Midjourney: a 500 text; Suno and videos: a 401; Kling: a 200 in a foreign shape; realtime:
 * a server `error` event right after the handshake).
 */
export class FakeLeakyUpstream {
  url = '';
  /** How many requests and handshakes reached it. */
  hits = 0;
  private server: Server;
  private wss = new WebSocketServer({ noServer: true });

  constructor() {
    this.server = createServer((req, res) => {
      this.hits++;
      req.resume();
      const leak = `backend ${LEAKED_ADDRESS} (${LEAKED_HOST}) at ${this.url} failed for key ${keyOf(req)}`;
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path.startsWith('/mj/')) return res.writeHead(500, { 'content-type': 'text/plain' }).end(leak);
      if (path.startsWith('/suno/')) return json(401, { code: 'error', message: leak });
      if (path.startsWith('/v1/videos/text2video')) return json(200, { status: 'fail', detail: leak });
      if (path.startsWith('/v1/videos')) return json(401, { error: { message: `Incorrect API key provided: ${leak}`, type: 'invalid_request_error', code: 'invalid_api_key' } });
      json(500, { error: { message: leak, type: 'server_error' } });
    });
    this.server.on('upgrade', (req, socket, head) => {
      this.hits++;
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const message = `backend ${LEAKED_ADDRESS} (${LEAKED_HOST}) at ${this.url} failed for key ${keyOf(req)}`;
        ws.send(JSON.stringify({ type: 'error', event_id: 'evt_up_1', error: { type: 'server_error', code: null, message, param: null, event_id: null } }));
      });
    });
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`);
  }

  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    this.wss.close();
    await closeServer(this.server);
  }
}

/** A loopback address nothing listens on (a port bound, then released). */
export async function deadUrl(): Promise<string> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  await closeServer(s);
  return `http://127.0.0.1:${port}`;
}

/**
 * A model provider in trouble (the OpenAPI sweep's upstream): every request fails with a 500 whose
 * body echoes the credential it was sent and names the private hosts behind it; a stream request
 * gets a 200 stream whose first event is such an error, in its dialect's shape. Any provider's key
 * spelling is read (bearer, x-api-key, x-goog-api-key, key=).
 */
export class LeakyUpstream extends FakeHttp<object> {
  protected keyOf(req: IncomingMessage, query: URLSearchParams): string {
    const auth = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    return auth || String(req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? query.get('key') ?? '');
  }

  protected handle(req: Received, res: ServerResponse): void {
    const message = `upstream ${LEAKED_HOST} (${LEAKED_ADDRESS}) refused ${req.method} ${req.path} with key ${req.key}`;
    if (req.body?.stream === true || req.path.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.path.endsWith('/messages')) res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`);
      else res.end(`data: ${JSON.stringify({ error: { message, type: 'server_error', code: 'internal' } })}\n\n`);
      return;
    }
    sendJson(res, { error: { message, type: 'server_error', code: 'internal' }, code: 500, msg: message, message }, 500);
  }
}
