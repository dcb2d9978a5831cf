import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a fake upstream received it. */
export interface Received {
  path: string;
  /** Query parameters of the URL. */
  query: URLSearchParams;
  method: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON, or the text when the body is not JSON. */
  body: any;
  /** The body exactly as it arrived. */
  raw: string;
  /** The credential the fake identified the caller by ('' when none). */
  key: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The HTTP plumbing the provider fakes share: a server on 127.0.0.1, a log of
 * received requests and one behaviour per credential.
 */
export abstract class FakeHttp<B extends object> {
  readonly received: Received[] = [];
  protected behaviours = new Map<string, B>();
  private server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      this.dispatch(req, res).catch((err) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake crashed: ${String(err?.stack ?? err)}`);
      });
    });
  }

  async start(): Promise<string> {
    return (this.url = await listenLoopback(this.server));
  }

  behave(key: string, behaviour: B): void {
    this.behaviours.set(key, behaviour);
  }

  behaviour(key: string): B {
    return this.behaviours.get(key) ?? ({} as B);
  }

  forKey(key: string): Received[] {
    return this.received.filter((r) => r.key === key);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  stop(): Promise<void> {
    return this.close();
  }

  /** The credential a request carries, as this provider reads it. */
  protected abstract keyOf(req: IncomingMessage, query: URLSearchParams): string;

  protected abstract handle(req: Received, res: ServerResponse): Promise<void> | void;

  private async dispatch(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // not JSON: kept as text so the handler can answer like the provider does
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const received: Received = {
      path: url.pathname,
      query: url.searchParams,
      method: req.method ?? 'GET',
      headers: req.headers,
      body,
      raw,
      key: this.keyOf(req, url.searchParams),
    };
    this.received.push(received);
    await this.handle(received, res);
  }
}

export function sendJson(res: ServerResponse, value: unknown, status = 200, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/** Faults any fake can inject instead of its answer (issue 20: broken successes, error pages). */
export interface Faults {
  /** Answer exactly this: an HTML error page, an empty or truncated 200, a huge invalid body. */
  raw?: { status: number; contentType: string; body: string };
  /** A 200 event stream of exactly these pieces (a non-JSON frame first, or good frames then a broken one). */
  rawStream?: Array<string | Buffer>;
  /** Milliseconds between the pieces of `rawStream`, so each reaches the gateway as a chunk of its own. */
  rawStreamGapMs?: number;
  /** Kept up to date while `rawStream` is written: pieces handed to the socket, and whether all were. */
  rawStreamProgress?: { written: number; done: boolean };
}

/** Writes a fault when the behaviour has one; true when it answered. */
export function answerFault(res: ServerResponse, f: Faults): boolean {
  if (f.raw) {
    res.writeHead(f.raw.status, { 'content-type': f.raw.contentType });
    res.end(f.raw.body);
    return true;
  }
  if (f.rawStream) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    void (async () => {
      for (const [i, piece] of f.rawStream!.entries()) {
        if (i && f.rawStreamGapMs) await new Promise((r) => setTimeout(r, f.rawStreamGapMs));
        const room = res.write(piece);
        if (f.rawStreamProgress) f.rawStreamProgress.written = i + 1;
        if (!room) await once(res, 'drain');
      }
      res.end(() => f.rawStreamProgress && (f.rawStreamProgress.done = true));
    })();
    return true;
  }
  return false;
}

/** Stream pacing shared by the fakes: cuts and delays counted in content chunks. */
export interface StreamPacing {
  /** Close the connection after this many content chunks. */
  cutAfterChunks?: number;
  /** Send the stream's 200 headers, then close without a single event. */
  cutBeforeFirstChunk?: boolean;
  /** Milliseconds between stream chunks. */
  chunkDelayMs?: number;
  /** After this many content chunks go silent with the connection open, until the client hangs up. */
  stallAfterChunks?: number;
  /** Send the stream's 200 headers, then nothing at all until the client hangs up. */
  stallBeforeFirstChunk?: boolean;
}

/** Writes pieces one by one with the pacing; `isContent` says which pieces count as content chunks. Answers false when cut. */
export async function writePaced(res: ServerResponse, pieces: { text: string | Buffer; content: boolean }[], pacing: StreamPacing): Promise<boolean> {
  if (pacing.stallBeforeFirstChunk) {
    res.flushHeaders();
    await new Promise((resolve) => res.once('close', resolve));
    return false;
  }
  if (pacing.cutBeforeFirstChunk) {
    res.flushHeaders();
    await sleep(20);
    res.destroy();
    return false;
  }
  let content = 0;
  for (const piece of pieces) {
    if (piece.content) {
      if (pacing.stallAfterChunks !== undefined && content >= pacing.stallAfterChunks) {
        if (!res.destroyed) await new Promise((resolve) => res.once('close', resolve));
        return false;
      }
      if (pacing.cutAfterChunks !== undefined && content >= pacing.cutAfterChunks) {
        await sleep(50); // let the chunks already written reach the gateway
        res.destroy();
        return false;
      }
      content++;
      if (pacing.chunkDelayMs) await sleep(pacing.chunkDelayMs);
    }
    if (res.destroyed) return false;
    res.write(piece.text);
  }
  return true;
}

/** Starts a fake's own server on a free loopback port and answers its base URL. */
export async function listenLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops a fake's server, dropping kept-alive connections so close does not wait for them. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
