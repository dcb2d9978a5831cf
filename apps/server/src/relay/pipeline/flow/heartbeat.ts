import type { FastifyReply } from 'fastify';
import { HubError } from '../../../common/errors.js';
import { openAIErrorBody, toHubError } from '../../../http/errors.js';
import { anthropicErrorBody, googleErrorBody } from '../../doors/errors.js';
import type { Endpoint } from '../../providers/types.js';
import type { Prepared } from './prepare.js';

/**
 * Keep-alive every 5 s once the response is open (relay.md §2.2); `secondMs` scales the
 * token's timeout_seconds. Tests shorten both (the timeout must be 30–90 s).
 */
export const heartbeatTiming = { intervalMs: 5_000, secondMs: 1_000 };
const HEARTBEAT_ENDPOINTS = new Set<Endpoint>(['chat/completions', 'messages', 'generateContent']);

const beats = new WeakMap<FastifyReply, Heartbeat>();

/**
 * Keeps a slow request's connection alive for a token with `setting.heartbeat`: after
 * `timeout_seconds` without an answer it commits a 200 and writes a keep-alive every 5 s
 * (an SSE comment for streams, a newline — JSON whitespace — otherwise).
 *
 * Keep-alives are not content, so failover still works: attempts that fail while the
 * heartbeat runs fail over as before; only when every attempt has failed is the error
 * written into the open response, in the door's own shape.
 */
export class Heartbeat {
  committed = false;
  /** Keep-alives written so far (a captured stream starts with them). */
  private pings = 0;
  private delay?: NodeJS.Timeout;
  private interval?: NodeJS.Timeout;

  constructor(
    private readonly reply: FastifyReply,
    private readonly p: Prepared,
    timeoutMs: number,
  ) {
    this.delay = setTimeout(() => this.commit(), timeoutMs);
    beats.set(reply, this);
  }

  private get sse(): boolean {
    return this.p.stream && !this.p.jsonArray;
  }

  private commit(): void {
    const raw = this.reply.raw;
    if (raw.destroyed || raw.headersSent) return;
    this.reply.hijack();
    raw.writeHead(200, {
      'content-type': this.sse ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-oneapi-request-id': this.reply.request.id,
    });
    this.committed = true;
    this.ping();
    this.interval = setInterval(() => this.ping(), heartbeatTiming.intervalMs);
  }

  private get pingText(): string {
    return this.sse ? '::PING\n\n' : '\n';
  }

  private ping(): void {
    if (this.reply.raw.destroyed) return;
    this.reply.raw.write(this.pingText);
    this.pings++;
  }

  /** What the keep-alives wrote into the response, in order. */
  get sent(): string {
    return this.pingText.repeat(this.pings);
  }

  /** The answer starts: no more keep-alives. */
  stop(): void {
    clearTimeout(this.delay);
    clearInterval(this.interval);
    beats.delete(this.reply);
  }

  /** Writes a final error into the already committed response; false when nothing was committed. */
  writeError(error: unknown): boolean {
    this.stop();
    if (!this.committed) return false;
    const hub = toHubError(error);
    const message = `${hub.message} (request id: ${this.reply.request.id})`;
    const raw = this.reply.raw;
    if (raw.writableEnded) return true;
    const endpoint = this.p.endpoint;
    const body = endpoint === 'messages' ? anthropicErrorBody(hub, message) : endpoint === 'generateContent' || endpoint === 'interactions' ? googleErrorBody(hub, message) : openAIBody(hub, message);
    const json = JSON.stringify(body);
    if (!this.sse) raw.end(json);
    else raw.end(endpoint === 'messages' ? `event: error\ndata: ${json}\n\n` : `data: ${json}\n\n`);
    return true;
  }
}

function openAIBody(hub: HubError, message: string) {
  const body = openAIErrorBody(hub);
  body.error.message = message;
  return body;
}

/** Starts a heartbeat when the caller's token asks for one and the endpoint supports it. */
export function startHeartbeat(p: Prepared, reply: FastifyReply): Heartbeat | undefined {
  const setting = p.caller.setting.heartbeat;
  if (!setting?.enabled || !(setting.timeout_seconds > 0) || !HEARTBEAT_ENDPOINTS.has(p.endpoint)) return undefined;
  return new Heartbeat(reply, p, setting.timeout_seconds * heartbeatTiming.secondMs);
}

/**
 * Called by a responder before it answers: stops the keep-alives. When the response head (200)
 * was already sent it returns the keep-alives written after it (only the body is then written);
 * undefined when nothing was sent.
 */
export function answerStarts(reply: FastifyReply): string | undefined {
  const beat = beats.get(reply);
  if (!beat) return undefined;
  beat.stop();
  return beat.committed ? beat.sent : undefined;
}
