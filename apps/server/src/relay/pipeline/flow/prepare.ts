import type { FastifyRequest } from 'fastify';
import { HubError } from '../../../common/errors.js';
import type { Endpoint } from '../../providers/types.js';
import type { RelayState } from '../relay-state.js';
import { authenticate, checkModelAllowed, type Caller } from './caller.js';
import { countChat, countInput, estimateBytes, estimateChat, estimateInput } from '../../tokenizer.js';
import { imageVirtualTokens } from '../accounting/image-cost.js';
import type { HubRequest } from '../../formats/index.js';
import { doorToHub } from '../../bridge/request.js';
import { suffixHub } from '../../bridge/suffix.js';
import { loadPrevious, type HistoryItem } from '../../bridge/responses-history.js';
import { namedSession } from '../routing/sticky.js';
import { rawBodyOf } from './raw-body.js';
import { checkDoorBody } from './door-body.js';
import { embedTexts } from '../../formats/gemini/embed.js';
import { interactionMaxOutput, interactionPromptText } from '../../formats/gemini/interactions.js';
import { loadPreviousInteraction } from '../../interactions/owned.js';
import { sealedOwner } from '../../responses/sealed-items.js';
import type { LimitHold } from '../accounting/limits.js';
import { refuseUnsafe } from './refuse-unsafe.js';
import { doorOf } from '../accounting/settle.js';
import type { Price } from '../accounting/pricing.js';
import type { RelayTrace } from '../../../telemetry/tracing.js';

/** What a door knows from outside the body (Gemini puts model and streaming in the path). */
export interface DoorInput {
  reader?: 'openai' | 'claude' | 'gemini';
  model?: string;
  stream?: boolean;
  /** Gemini streaming without `alt=sse`: answer a streamed JSON array. */
  jsonArray?: boolean;
}

/** Everything known about a relay request before the first upstream attempt. */
export interface Prepared {
  caller: Caller;
  endpoint: Endpoint;
  /** JSON body, or the raw multipart bytes. */
  body: Record<string, unknown> | Buffer;
  multipart: boolean;
  /** Model for routing, limits and billing (any `#arg` removed). */
  model: string;
  stream: boolean;
  group: string;
  groupRatio: number;
  /** Quick prompt estimate (byte arithmetic), sizing the quota hold. */
  promptEstimate: number;
  exactPromptTokens?: Promise<number>;
  maxOutput: number | undefined;
  hasTools: boolean;
  /** Stream frames as JSON array elements instead of SSE (Gemini without `alt=sse`). */
  jsonArray: boolean;
  startedAt: number;
  /** The model-name suffix after `#` (`thinking`, an effort), lower-cased. */
  modelArg?: string;
  /** The body as a hub (OpenAI chat) request, converted once on first need. */
  hub?: HubRequest;
  /** Responses door: the conversation the gateway kept behind `previous_response_id`. */
  history?: HistoryItem[];
  /** Responses door (`previous_response_id`) and Interactions (`previous_interaction_id`): the channel keeping it upstream; only it can continue it. */
  ownerChannel?: number;
  /** Set when the owner comes from the encrypted items of `input` (sealed-items.ts): the item named when that channel is gone. */
  sealedItem?: string;
  /** The session id an agent sent (conversation-sticky routing). */
  namedSession?: string;
  /** Set once a sticky pick was made for this request. */
  stickyKey?: string;
  /** What the request holds against its limit scopes (limits.ts); absent when none apply. */
  limits?: LimitHold;
  /** The worst case last computed for a model (see worstCase in handle.ts): admission's figure serves the hold. */
  worst?: WorstCase;
  /** The request's span; set only while tracing is on (telemetry/tracing.ts). */
  trace?: RelayTrace;
}

/** What a request may cost at most on one model, in its group, with its output cap. */
export interface WorstCase {
  model: string;
  groupRatio: number;
  askedOutput: number | undefined;
  price: Price;
  /** The output tokens the hold covers (the request's cap, or the model's limit when it has none). */
  maxOutput: number | undefined;
  reserved: number;
}

/** The request as a hub (OpenAI chat) request; converted at most once. */
export function hubOf(p: Prepared): HubRequest {
  p.hub ??= suffixHub(doorToHub(p.endpoint, p.body as Record<string, unknown>, p.model, p.stream, p.history), p.modelArg);
  return p.hub;
}

const DEFAULT_MODELS: Partial<Record<Endpoint, string>> = {
  'images/generations': 'dall-e-2',
  'images/edits': 'dall-e-2',
  'images/variations': 'dall-e-2',
  moderations: 'text-moderation-latest',
};

/** Reads a plain text field from a multipart body without a full parser (files are left alone). */
export function multipartField(raw: Buffer, name: string): string | undefined {
  const head = raw.toString('latin1', 0, Math.min(raw.length, 64 * 1024));
  const match = new RegExp(`name="${name}"\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n([^\\r\\n]+)`).exec(head);
  return match?.[1]?.trim();
}

/** Prompt size of a multipart request: images by their virtual tokens, audio uploads 0 (relay.md §4.4). */
function multipartPrompt(endpoint: Endpoint, raw: Buffer): number {
  if (endpoint !== 'images/edits' && endpoint !== 'images/variations') return 0;
  const field = (name: string) => multipartField(raw, name);
  return imageVirtualTokens({ model: field('model'), n: field('n'), size: field('size'), quality: field('quality'), style: field('style') });
}

/** The text fields of a multipart body a person wrote (image edit prompts); files are not read. */
function multipartTexts(raw: Buffer): string[] {
  const prompt = multipartField(raw, 'prompt');
  return prompt ? [prompt] : [];
}

type Counter = { chat: (m: unknown, t?: unknown) => Promise<number> | number; input: (i: unknown) => Promise<number> | number };

/** Prompt size per endpoint (relay.md §4.4), with either the quick estimate or the real tokenizer. */
async function promptSize(endpoint: Endpoint, body: Record<string, unknown>, c: Counter): Promise<number> {
  switch (endpoint) {
    case 'chat/completions':
      return c.chat(body.messages, body.tools);
    case 'messages':
    case 'generateContent':
      // The quick estimate sizes the hold from the text received; the exact count converts first.
      if (c !== quick) return 0;
      return estimateBytes(rawBodyOf(body)?.length ?? Buffer.byteLength(JSON.stringify(body)));
    case 'responses':
    case 'responses/compact':
      return (await c.input(body.input)) + (typeof body.instructions === 'string' ? await c.input(body.instructions) : 0);
    case 'completions':
      return c.input(body.prompt);
    case 'embeddings':
    case 'moderations':
      return c.input(body.input);
    case 'embedContent':
    case 'batchEmbedContents':
      return c.input(embedTexts(body));
    case 'interactions':
      return c.input(interactionPromptText(body));
    case 'audio/speech':
      return typeof body.input === 'string' ? Buffer.byteLength(body.input) : 0;
    case 'rerank':
      return c.input([body.query, ...(Array.isArray(body.documents) ? body.documents : [])].map((d) => (typeof d === 'string' ? d : JSON.stringify(d))));
    case 'images/generations':
    case 'images/edits':
    case 'images/variations':
      return imageVirtualTokens(body);
    default:
      return 0;
  }
}

const quick: Counter = { chat: estimateChat, input: estimateInput };

/**
 * The real prompt token count, for settling when upstream reported no usage.
 * Computed at most once per request, and never on the common path.
 */
export function exactPrompt(state: RelayState, p: Prepared): Promise<number> {
  if (p.multipart) return Promise.resolve(p.promptEstimate);
  const approximate = state.ctx.options.get('ApproximateTokenEnabled');
  // Kept Responses history counts too: it is part of what upstream reads.
  if (p.endpoint === 'messages' || p.endpoint === 'generateContent' || p.history) {
    // A body upstream accepted but the converter cannot read keeps the quick estimate.
    p.exactPromptTokens ??= Promise.resolve()
      .then(() => hubOf(p))
      .then((hub) => countChat(p.model, hub.messages, hub.tools, approximate))
      .catch(() => p.promptEstimate);
    return p.exactPromptTokens;
  }
  p.exactPromptTokens ??= promptSize(p.endpoint, p.body as Record<string, unknown>, {
    chat: (m, t) => countChat(p.model, m, t, state.ctx.options.get('ApproximateTokenEnabled')),
    input: (i) => countInput(p.model, i, state.ctx.options.get('ApproximateTokenEnabled')),
  });
  return p.exactPromptTokens;
}

function maxOutputOf(body: Record<string, unknown>): number | undefined {
  const generation = body.generationConfig as { maxOutputTokens?: unknown } | undefined;
  const v = body.max_completion_tokens ?? body.max_output_tokens ?? body.max_tokens ?? generation?.maxOutputTokens ?? interactionMaxOutput(body);
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** The group a caller's requests are routed in: the token's, else its backup, else the user's. */
export const callerGroup = (caller: Caller) => caller.token.group || caller.token.backup_group || caller.user.group;

/** Authenticates, validates the body, resolves the group and estimates the prompt (relay.md §1.6). */
export async function prepare(state: RelayState, req: FastifyRequest, endpoint: Endpoint, door: DoorInput = {}): Promise<Prepared> {
  const startedAt = Date.now();
  const caller = await authenticate(state.ctx, state.callers, req, door.reader);
  const multipart = Buffer.isBuffer(req.body);
  let body: Record<string, unknown> | Buffer;
  let rawModel: unknown;
  if (multipart) {
    body = req.body as Buffer;
    rawModel = multipartField(body, 'model');
  } else {
    if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw new HubError(400, 'request body must be a JSON object');
    body = req.body as Record<string, unknown>;
    rawModel = door.model ?? body.model;
  }
  rawModel ??= DEFAULT_MODELS[endpoint];
  if (typeof rawModel !== 'string' || !rawModel.trim()) throw new HubError(400, 'field model is required', { code: 'invalid_parameter' });
  const [base, suffix] = rawModel.split('#');
  const model = base.trim();
  checkModelAllowed(caller, model);
  if (!multipart) checkDoorBody(endpoint, body as Record<string, unknown>);

  const group = callerGroup(caller);
  const groupRow = state.groups.get(group);
  if (!groupRow) throw new HubError(403, `分组 ${group} 不存在`, { type: 'one_hub_error', code: 'group_not_found' });
  const stream = door.stream ?? (!multipart && (body as Record<string, unknown>).stream === true);
  refuseUnsafe(state, req, { caller, startedAt, stream, group }, { door: doorOf(endpoint), model, body: multipart ? null : body, texts: multipart ? multipartTexts(body as Buffer) : undefined });
  await checkRate(state, caller.user.id, groupRow.api_rate);

  const json = multipart ? {} : (body as Record<string, unknown>);
  const { history, ownerChannel: previousOwner }: { history?: HistoryItem[]; ownerChannel?: number } =
    endpoint === 'responses'
      ? await loadPrevious(state.ctx, caller.user.id, json.previous_response_id)
      : endpoint === 'interactions'
        ? await loadPreviousInteraction(state.ctx, caller.user.id, json.previous_interaction_id)
        : {};
  let ownerChannel = previousOwner;
  let sealedItem: string | undefined;
  // Encrypted reasoning and compaction items are readable only where they were produced.
  if (endpoint === 'responses' || endpoint === 'responses/compact') {
    const sealed = await sealedOwner(state.ctx, caller.user.id, json.input);
    if (sealed.channel !== undefined && ownerChannel !== undefined && sealed.channel !== ownerChannel) {
      throw new HubError(400, `input item ${sealed.item} carries encrypted content produced by another channel than the one keeping previous_response_id ${String(json.previous_response_id)}: no upstream can read both`, {
        type: 'invalid_request_error',
        code: 'mixed_encrypted_content',
      });
    }
    if (sealed.channel !== undefined && ownerChannel === undefined) [ownerChannel, sealedItem] = [sealed.channel, sealed.item];
  }
  return {
    caller,
    endpoint,
    body,
    multipart,
    model,
    stream,
    jsonArray: door.jsonArray === true,
    group,
    groupRatio: Number(groupRow.ratio),
    promptEstimate: multipart ? multipartPrompt(endpoint, body as Buffer) : (await promptSize(endpoint, json, quick)) + (history ? estimateInput(JSON.stringify(history)) : 0),
    maxOutput: maxOutputOf(json),
    hasTools: Array.isArray(json.tools) && json.tools.length > 0,
    startedAt,
    modelArg: suffix?.trim().toLowerCase() || undefined,
    history,
    ownerChannel,
    sealedItem,
    namedSession: multipart ? undefined : namedSession(endpoint, json, req.headers),
  };
}

/** Per-user requests per minute of the user's group: a fixed 60 s window shared by every node (rpm-window.ts). */
export async function checkRate(state: RelayState, userId: number, rpm: number): Promise<void> {
  if (rpm <= 0) throw new HubError(429, 'API requests are not allowed', { code: 'rate_limited' });
  if (!(await state.rpm.admit(userId, rpm))) throw new HubError(429, '您的速率达到上限，请稍后再试。', { type: 'one_hub_error', code: 'rate_limited' });
}
