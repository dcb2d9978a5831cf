import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { FastifyInstance } from 'fastify';
import { createParser } from 'eventsource-parser';
import type { FrameOut } from './ws-session.js';

/** Handshake headers that describe the WebSocket connection itself, not the request. */
const NOT_FORWARDED = new Set(['host', 'connection', 'upgrade', 'content-length', 'content-type', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

/** The handshake's headers as the HTTP door gets them (authorization, user agent, session and pin headers). */
export function doorHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_FORWARDED.has(name) || name.startsWith('sec-websocket-')) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The socket's hook for the injected response, set while a turn is dispatched. */
const turn = new AsyncLocalStorage<(raw: ServerResponse) => void>();

/**
 * Called by `POST /v1/responses` as it starts: hands a WebSocket turn its response before the first
 * byte, so a client that leaves while upstream is still silent cancels the attempt as on HTTP.
 */
export function attachWebSocketTurn(raw: ServerResponse): void {
  turn.getStore()?.(raw);
}

/** An in-band error event, as the Responses WebSocket carries failures. */
export function errorEvent(status: number, error: { message: string; type?: string; code?: string | null; param?: string | null }): string {
  return JSON.stringify({ type: 'error', status, error: { type: error.type ?? 'invalid_request_error', code: error.code ?? null, message: error.message, param: error.param ?? null } });
}

/** The door's JSON error body (already generic for non-admins, with its request id) as an error event. */
function errorOfBody(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string; type?: string; code?: string | null; param?: string | null } };
    if (body.error?.message) return errorEvent(status, { ...body.error, message: body.error.message });
  } catch {
    // not JSON: reported below without its text
  }
  return errorEvent(status, { type: 'server_error', message: `the request failed with status ${status}` });
}

/** One SSE event of the door as a WebSocket text frame: events pass unchanged, a bare `{"error":…}` becomes an error event. */
function frameOf(data: string): string | undefined {
  if (data === '[DONE]') return undefined;
  if (!data.startsWith('{"error"')) return data;
  return errorOfBody(502, data); // the stream broke off after it started
}

/**
 * Runs one `response.create` through `POST /v1/responses` with `stream: true` in-process, so
 * admission, holds, limits, routing, conversion and billing are the HTTP door's own code.
 * Each event goes to `out` as it arrives; `signal` aborting is the client leaving, which the
 * pipeline handles as a closed HTTP client: before upstream's first byte the attempt is cancelled
 * and nothing is billed; after it, upstream is read on for its usage, which is billed.
 */
export async function runThroughDoor(
  app: FastifyInstance,
  request: { headers: Record<string, string>; remoteAddress: string; body: Record<string, unknown> },
  out: FrameOut,
  signal: AbortSignal,
): Promise<void> {
  const emit = (frame: string) => out.emit(frame);
  let raw: ServerResponse | undefined;
  const leave = () => {
    if (!raw || raw.destroyed) return;
    raw.destroy();
    raw.emit('close'); // an injected response has no socket to report the close
  };
  const attach = (r: ServerResponse) => {
    raw = r;
    if (signal.aborted) leave();
  };
  signal.addEventListener('abort', leave, { once: true });
  try {
    const res = await turn.run(attach, () =>
      app.inject({
        method: 'POST',
        url: '/v1/responses',
        headers: { ...request.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ ...request.body, stream: true }),
        remoteAddress: request.remoteAddress,
        payloadAsStream: true,
      }),
    );
    attach(res.raw.res);
    const body = res.stream();
    const contentType = String(res.headers['content-type'] ?? '');
    if (!contentType.includes('text/event-stream')) {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (res.statusCode >= 400) return emit(errorOfBody(res.statusCode, text));
      // A stream request answered whole: its response, as the final event.
      return emit(JSON.stringify({ type: 'response.completed', response: JSON.parse(text) }));
    }
    const parser = createParser({
      onEvent: (event) => {
        const frame = frameOf(event.data);
        if (frame !== undefined) emit(frame);
      },
    });
    const decoder = new StringDecoder('utf8');
    for await (const chunk of body) {
      parser.feed(decoder.write(chunk as Buffer));
      // A slow client holds the injected response back, which holds upstream back (respond-stream's backpressure).
      const drained = out.drained();
      if (drained) await drained;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    signal.removeEventListener('abort', leave);
  }
}
