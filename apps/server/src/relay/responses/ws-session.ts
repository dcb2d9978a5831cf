import { WebSocket, type RawData } from 'ws';
import { errorEvent } from './ws-door.js';
import { SocketMemory } from './ws-memory.js';

/** A connection lives at most this long (as OpenAI's); tests shorten it. */
export const responsesWsTiming = { maxMs: 60 * 60_000 };

export interface ResponsesSession {
  /** Runs one response through the HTTP door, each event to `emit`; `signal` aborts when the client leaves. */
  run(body: Record<string, unknown>, out: FrameOut, signal: AbortSignal): Promise<void>;
  /** How long the socket may sit with nothing running and no client message. */
  idleMs(): number;
  onFailure(error: unknown): void;
}

/** Where a response's events go: `emit` sends one; `drained` is a promise while the client reads slower than upstream writes. */
export interface FrameOut {
  emit(frame: string): void;
  drained(): Promise<void> | undefined;
}

/** Bytes queued for a slow client before the response is paused (upstream then waits, as on HTTP). */
const HIGH_WATER = 1024 * 1024;

type ClientEvent = Record<string, unknown> & { type?: unknown };

function parseEvent(data: RawData): ClientEvent | undefined {
  try {
    const value: unknown = JSON.parse(data.toString());
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as ClientEvent) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One Responses WebSocket: each `response.create` runs as one HTTP response, one at a time;
 * every failure is an in-band error event and the socket stays open for the next one.
 */
export function runResponsesSession(ws: WebSocket, session: ResponsesSession): void {
  let running: AbortController | undefined;
  let expired = false;
  let idle: NodeJS.Timeout | undefined;
  let unsent = 0;
  const waiting: Array<() => void> = [];
  const wake = () => waiting.splice(0).forEach((resume) => resume());
  const send = (frame: string) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    unsent += frame.length;
    ws.send(frame, () => {
      unsent -= frame.length;
      if (unsent < HIGH_WATER) wake();
    });
  };
  const out: FrameOut = {
    emit: send,
    drained: () => (unsent < HIGH_WATER || ws.readyState !== WebSocket.OPEN ? undefined : new Promise((resume) => waiting.push(resume))),
  };
  const refuse = (message: string, code: string, param: string | null = null) => send(errorEvent(400, { type: 'invalid_request_error', code, message, param }));
  const closeAtLimit = () => {
    refuse('the WebSocket connection reached its 60-minute limit: open a new connection to continue', 'websocket_connection_limit_reached');
    ws.close(1000, 'connection limit reached');
  };
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => ws.close(1000, 'idle timeout'), session.idleMs());
  };
  const cap = setTimeout(() => {
    expired = true;
    if (!running) closeAtLimit(); // a running response finishes first
  }, responsesWsTiming.maxMs);

  // The latest unstored response, which the next response.create may continue (ws-memory.ts).
  const memory = new SocketMemory();
  const start = (received: Record<string, unknown>) => {
    const controller = new AbortController();
    running = controller;
    const body = memory.expand(received);
    session
      .run(body, { emit: memory.watch(body, send), drained: out.drained }, controller.signal)
      .catch((error) => {
        session.onFailure(error);
        send(errorEvent(500, { type: 'server_error', code: 'internal_error', message: 'the response failed inside the gateway' }));
      })
      .finally(() => {
        running = undefined;
        if (ws.readyState !== WebSocket.OPEN) return;
        if (expired) closeAtLimit();
        else armIdle();
      });
  };

  ws.on('message', (data, isBinary) => {
    clearTimeout(idle);
    const event = isBinary ? undefined : parseEvent(data);
    if (!event) refuse('each message must be a JSON object in a text frame', 'invalid_json');
    else if (event.type !== 'response.create') refuse(`unsupported event type ${JSON.stringify(event.type)}: send response.create`, 'invalid_event_type', 'type');
    else if (running) refuse('a response is already in progress on this connection: send the next response.create once it has ended', 'response_already_in_flight');
    else if (expired) closeAtLimit();
    else if (event.background === true) refuse('background is not supported in WebSocket mode', 'unsupported_parameter', 'background');
    else {
      const { type: _type, stream: _stream, background: _background, ...body } = event;
      return start(body);
    }
    if (!running) armIdle();
  });
  ws.on('close', () => {
    wake();
    clearTimeout(idle);
    clearTimeout(cap);
    running?.abort();
  });
  ws.on('error', () => ws.terminate());
  armIdle();
}
