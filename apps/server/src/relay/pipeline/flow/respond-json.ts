import type { FastifyReply } from 'fastify';
import { BinaryAnswer, emptyUsage, type Endpoint, type ProviderAdapter, type Usage } from '../../providers/types.js';
import type { BufferedResponse } from './upstream.js';
import type { RelayState } from '../relay-state.js';
import type { Prepared } from './prepare.js';
import type { Hold } from './handle.js';
import { releaseHold, settle } from '../accounting/settle.js';
import { assembleStream } from '../../providers/shared/assemble.js';
import { countText } from '../../tokenizer.js';
import { exactPrompt } from './prepare.js';
import { answerStarts } from './heartbeat.js';
import { dialectResponseToHub, hubToDoorResponse } from '../../bridge/response.js';
import { billingUsage } from '../../bridge/usage.js';
import { rememberResponse } from '../../bridge/responses-history.js';
import { chainResponse } from '../routing/sticky.js';
import { ownInteraction, ownPassthroughResponse } from '../../responses/owners.js';
import { holdInBackground, interactionEnded } from '../../responses/background.js';
import { isAgentInteraction } from '../../formats/gemini/interactions.js';
import { rememberSealedOutput } from '../../responses/sealed-items.js';
import { emptyUsage as emptyNormalUsage } from '../../formats/index.js';

/** Text the model produced in a non-stream answer, for counting when upstream reports no usage. */
function answerText(json: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const c of (json.choices as Array<Record<string, any>> | undefined) ?? []) {
    if (typeof c.message?.content === 'string') parts.push(c.message.content);
    if (typeof c.message?.reasoning_content === 'string') parts.push(c.message.reasoning_content);
    if (c.message?.tool_calls) parts.push(JSON.stringify(c.message.tool_calls));
    if (typeof c.text === 'string') parts.push(c.text);
  }
  if (typeof json.text === 'string') parts.push(json.text);
  return parts.join('\n');
}

/** Runs the adapter's answer conversion (providers whose answers are not OpenAI-shaped); may throw the provider's error. */
export function transformAnswer(adapter: ProviderAdapter, endpoint: Endpoint, res: BufferedResponse, request: unknown): BufferedResponse {
  if (adapter.streamOnly && String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
    const model = String((request as { model?: unknown })?.model ?? '');
    const joined = assembleStream(adapter.createStreamMapper({ forwardUsage: true, model }), res.body.toString('utf8'), model);
    return { ...res, headers: { ...res.headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(joined)) };
  }
  if (!adapter.transformResponse || !String(res.headers['content-type'] ?? '').includes('json')) return res;
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    return res;
  }
  const out = adapter.transformResponse(endpoint, json, request);
  if (out === json) return res; // answered as it is: its bytes go on unchanged
  if (out instanceof BinaryAnswer) return { ...res, headers: { ...res.headers, 'content-type': out.contentType }, body: out.bytes };
  return { ...res, headers: { ...res.headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(out)) };
}

/** What the client received: the heartbeat's keep-alives before the answer ('' when there were none), then the answer. */
export interface SentAnswer {
  keptAlive: string;
  body: Buffer | string;
}

/** Sends a complete upstream answer through (converted when the door speaks another dialect) and settles on its usage. */
export async function respondJson(state: RelayState, p: Prepared, hold: Hold, res: BufferedResponse, reply: FastifyReply, parsed?: Record<string, unknown>): Promise<SentAnswer> {
  let bytes: Buffer | string = res.body;
  const contentType = String(res.headers['content-type'] ?? 'application/octet-stream');
  let usage: Usage | null = null;
  let estimated = false;
  if (contentType.includes('json')) {
    let json: Record<string, unknown> | undefined = parsed;
    if (!json) {
      try {
        json = JSON.parse(bytes.toString('utf8'));
      } catch {
        json = undefined;
      }
    }
    if (json && p.trace) p.trace.answered(json);
    if (json?.error && typeof json.error === 'object') {
      releaseHold(state, hold);
      throw hold.route.adapter.mapError(400, bytes.toString('utf8'));
    }
    if (json && hold.plan.converted) return respondConverted(state, p, hold, json, reply);
    usage = json ? hold.route.adapter.parseUsage(p.endpoint, json) : null;
    if (p.endpoint === 'responses') {
      chainResponse(state, p, json?.id);
      ownPassthroughResponse(state.ctx, p.caller.user.id, hold.route.row.id, p.body as Record<string, unknown>, json?.id);
      // Accepted to run in the background: billed when it ends (responses/background.ts), not now.
      if (json && json.background === true && typeof json.id === 'string' && (json.status === 'queued' || json.status === 'in_progress')) {
        await holdInBackground(state, p, hold, json.id, { requestId: reply.request.id, ip: reply.request.ip });
        return sendBytes(reply, res.statusCode, contentType, bytes);
      }
    }
    // Encrypted reasoning and compaction items: their follow-ups must come back to this channel.
    if (json && (p.endpoint === 'responses' || p.endpoint === 'responses/compact')) rememberSealedOutput(state.ctx, p.caller.user.id, hold.route.row.id, json.output);
    if (p.endpoint === 'interactions') {
      ownInteraction(state.ctx, p.caller.user.id, hold.route.row.id, p.body as Record<string, unknown>, json?.id);
      // A background (or agent) interaction still running: billed when it ends (responses/background.ts), not now.
      const asked = p.body as Record<string, unknown>;
      if (json && (asked.background === true || isAgentInteraction(asked)) && typeof json.id === 'string' && !interactionEnded(json.status)) {
        await holdInBackground(state, p, hold, json.id, { requestId: reply.request.id, ip: reply.request.ip }, 'interaction');
        return sendBytes(reply, res.statusCode, contentType, bytes);
      }
    }
    if (!usage || (usage.promptTokens === 0 && usage.completionTokens === 0)) {
      estimated = true;
      usage = { ...emptyUsage(), promptTokens: await exactPrompt(state, p), completionTokens: json ? await countText(p.model, answerText(json)) : 0 };
      // An embeddings answer without usage (Gemini's, converted) tells the caller what was billed.
      if (json && p.endpoint === 'embeddings') bytes = JSON.stringify({ ...json, usage: { prompt_tokens: usage.promptTokens, total_tokens: usage.promptTokens } });
    }
  } else {
    // Binary answers (speech audio) and plain-text transcripts: billed on the prompt and any text returned.
    estimated = true;
    const text = contentType.startsWith('text/') ? bytes.toString('utf8') : '';
    usage = { ...emptyUsage(), promptTokens: await exactPrompt(state, p), completionTokens: await countText(p.model, text) };
  }
  settle(state, p, hold, { usage, estimated, requestId: reply.request.id, ip: reply.request.ip });
  return sendBytes(reply, res.statusCode, contentType, bytes);
}

/**
 * Writes a complete answer straight to the socket (the reply's send pipeline has nothing
 * to add to bytes that are already final); after a heartbeat only the body is left to send.
 */
export function sendBytes(reply: FastifyReply, status: number, contentType: string, bytes: Buffer | string): SentAnswer {
  const keptAlive = answerStarts(reply);
  if (keptAlive !== undefined) {
    reply.raw.end(bytes);
    return { keptAlive, body: bytes };
  }
  reply.hijack();
  reply.raw.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(bytes), 'x-oneapi-request-id': reply.request.id });
  reply.raw.end(bytes);
  return { keptAlive: '', body: bytes };
}

/** A converted answer: the channel's dialect → hub → the door's shape, billed on the normalised usage. */
async function respondConverted(state: RelayState, p: Prepared, hold: Hold, json: Record<string, unknown>, reply: FastifyReply): Promise<SentAnswer> {
  let converted;
  try {
    converted = dialectResponseToHub(hold.route.adapter.dialect, json, p.model);
  } catch (error) {
    releaseHold(state, hold);
    throw error;
  }
  let normal = converted.usage;
  const estimated = !normal || normal.inputUncached + normal.cacheRead + normal.output === 0;
  if (estimated) {
    const completion = await countText(p.model, answerText(converted.hub as unknown as Record<string, unknown>));
    normal = { ...emptyNormalUsage(), inputUncached: await exactPrompt(state, p), output: completion };
  }
  const usage = billingUsage(normal!, hold.route.adapter.dialect);
  settle(state, p, hold, { usage, estimated, requestId: reply.request.id, ip: reply.request.ip });
  const body = hubToDoorResponse(p.endpoint, converted.hub, normal!, p.body as Record<string, unknown>);
  if (p.endpoint === 'responses') chainResponse(state, p, (body as { id?: unknown }).id);
  if (p.endpoint === 'responses') await rememberResponse(state.ctx, p.caller.user.id, hold.route.row.id, p.body as Record<string, unknown>, p.history, body as Parameters<typeof rememberResponse>[5]);
  return sendBytes(reply, 200, 'application/json', JSON.stringify(body));
}
