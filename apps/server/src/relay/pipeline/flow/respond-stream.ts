import { StringDecoder } from 'node:string_decoder';
import type { FastifyReply } from 'fastify';
import { logMessage } from '@one-hub/contract';
import { createParser } from 'eventsource-parser';
import { emptyUsage } from '../../providers/types.js';
import { idleMessage, type UpstreamStream } from './upstream.js';
import type { RelayState } from '../relay-state.js';
import type { Prepared } from './prepare.js';
import type { Hold } from './handle.js';
import { releaseHold, settle } from '../accounting/settle.js';
import { HubError } from '../../../common/errors.js';
import { countText } from '../../tokenizer.js';
import { exactPrompt } from './prepare.js';
import { answerStarts } from './heartbeat.js';
import { createBridgeStream } from '../../bridge/stream.js';
import { finalResponseOf, rememberResponse } from '../../bridge/responses-history.js';
import { chainResponse } from '../routing/sticky.js';
import { ownInteraction, ownPassthroughResponse } from '../../responses/owners.js';
import { SealedItems } from '../../responses/sealed-items.js';
import { chainMappers } from '../../providers/shared/chain.js';
import type { Frame, StreamMapper } from '../../providers/types.js';
import { plausibleFrame, validFirstFrame } from './answer-check.js';
import { BROKEN_FRAME, brokenFrame } from '../../providers/shared/broken-frame.js';
import { isAdmin, scrubIdentity, streamErrorData } from '../../../egress/failure.js';

/** An upstream event that reports an error (its text may name the channel's key or host). */
const errorEvent = (data: string, event?: string) =>
  event === 'error' || event === 'response.failed' || data.startsWith('{"error"') || data.startsWith('{"type":"error"');
import type { FirstByteWatch } from './first-byte.js';
import type { StreamTap } from './capture.js';

/** Writes frames as SSE, or as the elements of one JSON array (Gemini without `alt=sse`). */
class FrameWriter {
  private opened = false;
  constructor(private readonly jsonArray: boolean) {}

  render(frame: Frame, upstreamEvent?: string): string {
    const data = typeof frame === 'string' ? frame : frame.data;
    if (this.jsonArray) {
      const lead = this.opened ? ',\r\n' : '[';
      this.opened = true;
      return lead + data;
    }
    const event = typeof frame === 'string' ? upstreamEvent : frame.event;
    return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
  }

  close(): string {
    if (!this.jsonArray) return '';
    return this.opened ? ']' : '[]';
  }
}

function mapperFor(p: Prepared, hold: Hold, askedUsage: boolean): StreamMapper {
  const adapter = hold.route.adapter;
  if (!hold.plan.converted) return adapter.createStreamMapper({ forwardUsage: askedUsage, model: p.model, endpoint: hold.plan.endpoint });
  const bridge = createBridgeStream({
    door: p.endpoint,
    dialect: hold.route.adapter.dialect,
    model: p.model,
    request: p.body as Record<string, unknown>,
    forwardUsage: askedUsage,
    inputTokens: p.promptEstimate,
  });
  // Providers with their own stream format are turned into OpenAI chunks first.
  return adapter.convertsStream ? chainMappers(adapter.createStreamMapper({ forwardUsage: true, model: p.model }), bridge) : bridge;
}

/** A field of a passed-through event's JSON (`response` of `response.completed`, `item` of `response.output_item.done`). */
function fieldOf<K extends 'response' | 'item'>(data: string, field: K): Record<string, unknown> | undefined {
  try {
    return (JSON.parse(data) as Record<K, Record<string, unknown> | undefined>)[field];
  } catch {
    return undefined;
  }
}

/** Marks an event whose items may carry encrypted content; an event without it is never parsed for it. */
const SEALED = '"encrypted_content":"';

/** How long the gateway keeps reading after the client left, to learn the real usage. */
export const DRAIN_AFTER_DISCONNECT_MS = 30_000;

/**
 * Streams an upstream SSE answer to the client frame by frame, driven by upstream's
 * chunks (no promise per chunk).
 * Billing policy (pitfalls "stream interrupted"):
 * - client gone mid-stream: keep reading upstream (bounded) for its usage; if none
 *   comes, bill the prompt plus the tokens actually delivered;
 * - upstream breaks off: the client gets an error event (no [DONE]), delivered tokens
 *   are billed and the log row says so;
 * - upstream fails before its first event (no byte, or an exception as the first
 *   frame, as Bedrock reports throttling): nothing was sent, the hold is released and
 *   the attempt fails over.
 */
export async function respondStream(
  state: RelayState,
  p: Prepared,
  hold: Hold,
  res: UpstreamStream,
  reply: FastifyReply,
  watch?: FirstByteWatch,
  /** Set when a capture rule names this attempt: collects what the client is sent. */
  tap?: StreamTap,
): Promise<void> {
  const body = p.body as Record<string, unknown>;
  const askedUsage = Boolean((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage);
  const mapper = mapperFor(p, hold, askedUsage);
  const writer = new FrameWriter(p.jsonArray);
  const pending: string[] = [];
  let events = 0;
  let sawEnd = false;
  /** A frame that is not JSON (an HTML line, a cut-off object): the stream is broken from there on. */
  let broken: string | undefined;
  // A converted stream carries only the door's framing, never the channel's event names.
  const passEventNames = !hold.plan.converted && !hold.route.adapter.convertsStream;
  const row = hold.route.row;
  /** An interaction's id, owned as soon as the stream names it (its first event does). */
  const interaction = p.endpoint === 'interactions' ? (mapper as StreamMapper & { interactionId?(): string | undefined }) : undefined;
  let ownedInteraction = false;
  /** A passed-through Responses stream: its response is owned, its encrypted items remembered (sealed-items.ts). */
  const passedResponses = p.endpoint === 'responses' && !hold.plan.converted;
  const sealed = new SealedItems();
  const onEvent = (event: { data: string; event?: string }) => {
    if (broken) return;
    // The first frame is parsed; later ones get the O(1) check, and the mapper's own parse where it parses.
    if (!framing && !(events === 0 ? validFirstFrame(event.data) : plausibleFrame(event.data))) {
      broken = BROKEN_FRAME;
      return;
    }
    events++;
    if (event.data === '[DONE]' || event.event === 'response.completed' || event.event === 'message_stop') sawEnd = true;
    if (passedResponses) {
      if (event.event === 'response.output_item.done' && event.data.includes(SEALED)) sealed.add(fieldOf(event.data, 'item'));
      else if (event.event === 'response.completed' || event.event === 'response.incomplete') {
        const response = fieldOf(event.data, 'response');
        if (event.data.includes(SEALED)) sealed.addAll(response?.output);
        // Its follow-ups must come back here: the items' one write goes out before the answer's end.
        sealed.remember(state.ctx, p.caller.user.id, row.id);
        if (event.event === 'response.completed') {
          chainResponse(state, p, response?.id);
          ownPassthroughResponse(state.ctx, p.caller.user.id, row.id, p.body as Record<string, unknown>, response?.id);
        }
      }
    }
    const name = passEventNames ? event.event : undefined;
    if (!errorEvent(event.data, event.event)) {
      for (const frame of mapper.onEvent(event.data, event.event)) pending.push(writer.render(frame, name));
      if (interaction && !ownedInteraction && interaction.interactionId?.()) {
        ownedInteraction = true;
        ownInteraction(state.ctx, p.caller.user.id, row.id, body, interaction.interactionId());
      }
      return;
    }
    const admin = isAdmin(p.caller.user.role);
    const told = streamErrorData(event.data, row, admin, reply.request.id);
    for (const frame of mapper.onEvent(told, event.event)) pending.push(scrubIdentity(writer.render(frame, name), row, admin));
  };
  const parser = createParser({ onEvent });
  // Upstreams that do not speak SSE (Bedrock's binary event stream) bring their own decoder.
  const framing = hold.route.adapter.streamFraming?.create();
  // A StringDecoder is cheaper to make than a TextDecoder; unlike it, it keeps a leading BOM, which SSE drops.
  const decoder = new StringDecoder('utf8');
  let startSeen = false;
  const decode = (chunk: Buffer) => {
    const text = decoder.write(chunk);
    if (startSeen || !text) return text;
    startSeen = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  const idleSeconds = state.ctx.options.get('StreamIdleTimeoutSeconds');
  const raw = reply.raw;

  let firstByteMs: number | undefined;
  /** Upstream is done: ended, failed, broken, or stopped after the client left. */
  let over = false;
  let endedEmpty = false;
  let upstreamError: string | undefined;
  let failureError: unknown;
  /** The client's response is open: frames are written as they come. */
  let opened = false;
  let clientGone = false;
  let waitingDrain = false;
  let flushQueued = false;
  let reachedFirst!: () => void;
  let reachedEnd!: () => void;
  const firstEvent = new Promise<void>((resolve) => (reachedFirst = resolve));
  const upstreamDone = new Promise<void>((resolve) => (reachedEnd = resolve));
  const stop = (error?: string, cause?: unknown) => {
    if (over) return;
    over = true;
    if (error !== undefined && !clientGone) [upstreamError, failureError] = [error, cause];
    reachedFirst();
    reachedEnd();
  };
  const resume = () => {
    waitingDrain = false;
    res.resume();
  };
  const flush = () => {
    flushQueued = false;
    if (!pending.length) return;
    const frames = pending.join('');
    pending.length = 0;
    if (clientGone) return;
    tap?.add(frames);
    if (!raw.write(frames) && !waitingDrain) {
      waitingDrain = true;
      res.pause();
      raw.once('drain', resume);
    }
  };
  // Frames from the end event on wait one event-loop turn for upstream's end, so they
  // usually leave with the response's end in one write; a slow end only delays them a turn.
  const send = () => {
    if (!sawEnd) flush();
    else if (!flushQueued && pending.length) {
      flushQueued = true;
      setImmediate(() => over || flush());
    }
  };
  // Nothing is sent to the client before upstream's first event: a stream that fails
  // before it costs nothing and fails over like any other failed attempt.
  res.attach({
    data(chunk) {
      if (over) return;
      if (firstByteMs === undefined) {
        watch?.stop();
        firstByteMs = Date.now() - p.startedAt;
      }
      try {
        if (framing) framing.push(chunk, onEvent);
        else parser.feed(decode(chunk));
      } catch (error) {
        // A failure decoded after some events of the same chunk is a mid-stream break: those events go out first.
        stop((error as Error).message, error);
        return res.destroy();
      }
      if (broken) {
        stop(broken, events === 0 ? brokenFrame() : undefined);
        return res.destroy();
      }
      if (events === 0) return;
      if (opened) send();
      else reachedFirst();
    },
    end: () => {
      endedEmpty = events === 0;
      stop();
    },
    error: (error) => stop(idleMessage(error, idleSeconds) ?? error.message, error),
  });

  await firstEvent;
  if (events === 0) {
    releaseHold(state, hold);
    res.destroy();
    // An exception the decoder mapped (Bedrock throttling → 429) keeps its status, so failover and the client see it;
    // throttling freezes the channel for the model like an upstream 429 does.
    if (failureError instanceof HubError) {
      if (failureError.status === 429) state.selector.freeze(hold.route.row.id, p.model, state.ctx.options.get('RetryCooldownSeconds'));
      throw failureError;
    }
    const failure = endedEmpty ? 'ended' : `failed: ${upstreamError}`;
    // A 200 stream that ended without a single event is a broken answer, like an empty 200 body.
    throw new HubError(502, `upstream stream ${failure} before its first ${firstByteMs === undefined ? 'byte' : 'event'}`, { retryable: true, code: endedEmpty ? 'broken_answer' : undefined });
  }

  const keptAlive = answerStarts(reply); // a heartbeat may already have sent the 200 and keep-alives
  tap?.add(keptAlive ?? '');
  reply.hijack();
  if (keptAlive === undefined) raw.writeHead(200, {
    'content-type': p.jsonArray ? 'application/json; charset=utf-8' : 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-oneapi-request-id': reply.request.id,
  });

  let deliveredText: string | null = null;
  let finished = false;
  let drainTimer: NodeJS.Timeout | undefined;
  const onClose = () => {
    if (finished || clientGone) return;
    clientGone = true;
    deliveredText = mapper.text();
    if (waitingDrain) resume();
    drainTimer = setTimeout(() => res.destroy(), DRAIN_AFTER_DISCONNECT_MS);
    drainTimer.unref();
  };
  raw.on('close', onClose);
  // The client may have left between the first event and here: its 'close' has already fired.
  if (raw.destroyed) onClose();
  opened = true;
  if (!over) send();
  await upstreamDone;
  if (drainTimer) clearTimeout(drainTimer);
  raw.off('drain', resume);

  const upstreamUsage = mapper.usage();
  // The text is counted only when upstream reported no usage (most streams do; their chunks are never parsed).
  const countDelivered = () => countText(p.model, clientGone ? (deliveredText ?? '') : mapper.text());
  const usage = upstreamUsage ?? { ...emptyUsage(), promptTokens: await exactPrompt(state, p), completionTokens: await countDelivered() };
  let note: ReturnType<typeof logMessage> | undefined;
  // What is left to send goes out with the response's end: one write, not two.
  let tail = '';
  if (clientGone) note = logMessage(upstreamUsage ? 'client_left_upstream_usage' : 'client_left_delivered');
  else if (upstreamError || !(mapper.ended ? mapper.ended() : sawEnd)) {
    note = logMessage('stream_broke', { reason: upstreamError ?? 'ended without a final event' });
    const error = { error: { message: note.content, type: 'upstream_error', code: 'stream_interrupted' } };
    const frames = mapper.fail ? mapper.fail(note.content) : [JSON.stringify(error)];
    // Events decoded from the last chunk before a decoder reported the failure still go out first.
    tail = pending.join('') + frames.map((f) => writer.render(f)).join('') + writer.close();
  } else {
    const frames = mapper.finish();
    const final = hold.plan.converted && p.endpoint === 'responses' ? finalResponseOf(frames) : undefined;
    chainResponse(state, p, final?.id);
    if (final) await rememberResponse(state.ctx, p.caller.user.id, hold.route.row.id, p.body as Record<string, unknown>, p.history, final);
    tail = pending.join('') + frames.map((f) => writer.render(f)).join('') + writer.close();
  }
  finished = true;
  settle(state, p, hold, {
    usage,
    estimated: !upstreamUsage,
    firstResponseMs: firstByteMs,
    note,
    requestId: reply.request.id,
    ip: reply.request.ip,
  });
  if (tap) {
    if (!clientGone) tap.add(tail);
    if (note) tap.ending = note.content;
  }
  if (!raw.writableEnded) raw.end(tail);
}
