import type { ServerResponse } from 'node:http';

/** The fake's answers for the non-chat OpenAI endpoints, shaped as the real API answers them. */

export const SPEECH_BYTES = Buffer.from('ID3\u0004fake-mp3-frames', 'latin1');

/** A `name="field"` value from a multipart body (enough for the fake: plain text fields). */
export function multipartField(text: string, name: string): string | undefined {
  return new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r\\n]*)`).exec(text)?.[1];
}

function json(res: ServerResponse, value: unknown, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const sse = (res: ServerResponse, event: string | undefined, data: unknown) =>
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

export function completions(res: ServerResponse, body: any, words: string[], noUsage: boolean) {
  const base = { id: 'cmpl-fake', object: 'text_completion', created: 1700000000, model: body.model };
  const usage = { prompt_tokens: 4, completion_tokens: words.length, total_tokens: 4 + words.length };
  if (!body.stream) return json(res, { ...base, choices: [{ index: 0, text: words.join(' '), finish_reason: 'stop', logprobs: null }], ...(noUsage ? {} : { usage }) });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  words.forEach((w, i) => sse(res, undefined, { ...base, choices: [{ index: 0, text: i ? ` ${w}` : w, finish_reason: null, logprobs: null }] }));
  if (body.stream_options?.include_usage && !noUsage) sse(res, undefined, { ...base, choices: [], usage });
  res.end('data: [DONE]\n\n');
}

export function images(res: ServerResponse, model: string | undefined, n: number) {
  const data = Array.from({ length: n }, (_, i) => ({ url: `https://images.example/fake-${i}.png`, revised_prompt: 'a fake picture' }));
  // gpt-image-1 reports token usage; DALL·E models report none.
  const usage = model === 'gpt-image-1' ? { input_tokens: 50, output_tokens: 4160, total_tokens: 4210, input_tokens_details: { text_tokens: 50, image_tokens: 0 } } : undefined;
  json(res, { created: 1700000000, data, ...(usage ? { usage } : {}) });
}

export function speech(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'audio/mpeg' });
  res.end(SPEECH_BYTES);
}

export function transcription(res: ServerResponse, format: string | undefined, text: string) {
  if (format === 'text') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    return res.end(`${text}\n`);
  }
  json(res, { text, usage: { type: 'duration', seconds: 3 } });
}

export function moderations(res: ServerResponse, body: any) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  json(res, {
    id: 'modr-fake',
    model: body.model ?? 'omni-moderation-latest',
    results: inputs.map(() => ({ flagged: false, categories: { violence: false }, category_scores: { violence: 0.001 } })),
  });
}

export function rerank(res: ServerResponse, body: any) {
  const docs: unknown[] = Array.isArray(body.documents) ? body.documents : [];
  const results = docs.map((d, index) => ({ index, relevance_score: 1 / (index + 1), document: { text: typeof d === 'string' ? d : JSON.stringify(d) } }));
  json(res, { model: body.model, results, usage: { prompt_tokens: 12, total_tokens: 12 } });
}

let responseCount = 0;
let sealCount = 0;

/**
 * Encrypted content as the real API seals it: opaque to the client, readable only by the
 * organisation (here: the API key) that produced it. Each sealing differs, like real ciphertext.
 */
export function seal(key: string, what: string): string {
  return `gAAAA${Buffer.from(JSON.stringify({ org: key, what, n: ++sealCount })).toString('base64url')}`;
}

/**
 * What the real API checks before reading an input: every item's `encrypted_content` must be
 * one this organisation sealed. Answers the 400 body when one is not, else undefined.
 */
export function unreadableItem(key: string, input: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(input)) return undefined;
  for (const item of input) {
    const content = item?.encrypted_content;
    if (typeof content !== 'string') continue;
    let org: unknown;
    try {
      org = JSON.parse(Buffer.from(content.slice(5), 'base64url').toString('utf8')).org;
    } catch {
      org = undefined;
    }
    if (content.startsWith('gAAAA') && org === key) continue;
    const reason = org === undefined ? 'Encrypted content could not be decrypted or parsed.' : 'Encrypted content organization_id did not match the target organization.';
    const shown = item.id ? `for item ${item.id}` : `${content.slice(0, 4)}...${content.slice(-4)}`;
    return { error: { message: `The encrypted content ${shown} could not be verified. Reason: ${reason}`, type: 'invalid_request_error', param: null, code: 'invalid_encrypted_content' } };
  }
  return undefined;
}

/** A stored response as the real API keeps it: the response and its input items with ids. */
export interface KeptResponse {
  key: string;
  response: Record<string, unknown>;
  inputItems: Array<Record<string, unknown>>;
  /** A `background: true` response: where it ends, how often it has been read, and its events when it was streamed. */
  background?: { final: Record<string, unknown>; polls: number; events?: Array<Record<string, unknown>> };
}

/** The statuses a response ends in. */
export const ENDED = new Set(['completed', 'incomplete', 'failed', 'cancelled']);

function inputItemsOf(input: unknown, id: string): Array<Record<string, unknown>> {
  const list = typeof input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }] : Array.isArray(input) ? input : [];
  return list.map((item, i) => ({ id: `msg_in_${id.slice(5)}_${i}`, ...item }));
}

/** `service_tier` values the API accepts (`fast` is priority processing's new name). */
export const SERVICE_TIERS = ['auto', 'default', 'flex', 'scale', 'priority', 'fast'];

/** The tier an answer reports: the one asked for, else the project's default (`projectTier`, else `default`). */
export function servedTier(body: any, projectTier?: string): string {
  const asked = body?.service_tier;
  if (asked === 'fast') return 'priority';
  return asked && asked !== 'auto' ? asked : (projectTier ?? 'default');
}

/**
 * Answers a create call, streamed when asked; with `store` (default true) the response is kept under `keep`.
 * `b.usage`, when given, replaces the fixed usage (cached and cache-write tokens are parts of the input);
 * `b.chunkDelayMs` paces the text deltas (the answer's own usage still comes at the end).
 */
export async function responses(
  res: ServerResponse,
  body: any,
  words: string[],
  noUsage: boolean,
  b: { usage?: { prompt: number; completion: number; cached?: number; cacheWrite?: number }; serviceTier?: string; chunkDelayMs?: number; key?: string } = {},
  keep?: (kept: Omit<KeptResponse, 'key'>) => void,
) {
  const id = `resp_fake${++responseCount}`;
  // `generate: false` (Codex's WebSocket prewarm) reads the input and generates nothing: no output, no output tokens.
  const prewarm = body.generate === false;
  if (prewarm) words = [];
  const text = words.join(' ');
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  const u = b.usage ? { ...b.usage, completion: prewarm ? 0 : b.usage.completion } : { prompt: 9, completion: words.length };
  const usage = {
    input_tokens: u.prompt,
    input_tokens_details: { cached_tokens: u.cached ?? 0, cache_write_tokens: u.cacheWrite ?? 0 },
    output_tokens: u.completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.prompt + u.completion,
  };
  const background = body.background === true;
  // A reasoning model's reasoning item; its encrypted content only when `include` asks for it.
  const sealed = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
  const reasoning = { id: `rs_fake${responseCount}`, type: 'reasoning', summary: [], ...(sealed ? { encrypted_content: seal(b.key ?? '', 'reasoning') } : {}) };
  const output = prewarm ? [] : sealed ? [reasoning, message] : [message];
  const at = output.length - 1; // the message's output_index
  const done = { id, object: 'response', created_at: 1700000000, status: 'completed', background, error: null, model: body.model, service_tier: servedTier(body, b.serviceTier), output, previous_response_id: body.previous_response_id ?? null, store: body.store !== false, ...(noUsage ? {} : { usage }) };
  // Background: answered queued at once; it moves on as it is read again (storedResponse), as the real one does over time.
  const queued = { ...done, status: 'queued', output: [], usage: null };
  const kept: Omit<KeptResponse, 'key'> = background ? { response: queued, inputItems: inputItemsOf(body.input, id), background: { final: done, polls: 0, ...(body.stream ? { events: [] as Array<Record<string, unknown>> } : {}) } } : { response: done, inputItems: inputItemsOf(body.input, id) };
  if (body.store !== false || background) keep?.(kept);
  if (!body.stream) return json(res, background ? queued : done);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let seq = 0;
  const event = (type: string, rest: Record<string, unknown>) => {
    const e = { type, sequence_number: seq++, ...rest };
    kept.background?.events?.push(e);
    sse(res, type, e);
  };
  event('response.created', { response: { ...done, status: 'in_progress', output: [], usage: null } });
  if (prewarm) {
    event('response.completed', { response: done });
    res.end();
    return;
  }
  if (sealed) {
    event('response.output_item.added', { output_index: 0, item: { ...reasoning, encrypted_content: undefined } });
    event('response.output_item.done', { output_index: 0, item: reasoning });
  }
  event('response.output_item.added', { output_index: at, item: { ...message, status: 'in_progress', content: [] } });
  event('response.content_part.added', { output_index: at, item_id: 'msg_fake', content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  for (const [i, w] of words.entries()) {
    if (b.chunkDelayMs) await new Promise((r) => setTimeout(r, b.chunkDelayMs));
    event('response.output_text.delta', { output_index: at, item_id: 'msg_fake', content_index: 0, delta: i ? ` ${w}` : w });
  }
  event('response.output_text.done', { output_index: at, item_id: 'msg_fake', content_index: 0, text });
  event('response.content_part.done', { output_index: at, item_id: 'msg_fake', content_index: 0, part: message.content[0] });
  event('response.output_item.done', { output_index: at, item: message });
  event('response.completed', { response: done });
  if (background) kept.response = done;
  res.end();
}

/** The fake's token count for `/v1/responses/input_tokens`: a third of the JSON of what the model reads. */
export const fakeInputTokens = (body: any) => Math.ceil(JSON.stringify([body.instructions ?? '', body.input ?? '', body.tools ?? []]).length / 3);

/** What `/v1/responses/input_tokens` and `/v1/responses/compact` check before answering, as OpenAI does; answers whether it refused. */
export function refuseResponsesBody(res: ServerResponse, path: string, authorization: string | undefined, body: any): boolean {
  const invalid = (status: number, message: string, param: string | null, code: string | null) => {
    json(res, { error: { message, type: 'invalid_request_error', param, code } }, status);
    return true;
  };
  if (!/^Bearer \S+$/.test(authorization ?? '')) return invalid(401, "You didn't provide an API key.", null, null);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return invalid(400, 'We could not parse the JSON body of your request.', null, null);
  if (path.endsWith('/compact') && typeof body.model !== 'string') return invalid(400, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (body.input !== undefined && body.input !== null && typeof body.input !== 'string' && !Array.isArray(body.input)) {
    return invalid(400, "Invalid type for 'input': expected a string or an array.", 'input', 'invalid_type');
  }
  return false;
}

export function inputTokens(res: ServerResponse, body: any) {
  json(res, { object: 'response.input_tokens', input_tokens: fakeInputTokens(body) });
}

/** A compaction: the user messages of the input, then one encrypted compaction item; usage as given. */
export function compact(res: ServerResponse, body: any, usage: { prompt: number; completion: number; cached?: number }, key = '') {
  const items: any[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  const users = items
    .filter((item) => item.role === 'user')
    .map((item, i) => ({
      id: `msg_user_${i}`,
      type: 'message',
      role: 'user',
      status: 'completed',
      content: typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content,
    }));
  const summary = { id: 'cmp_item_fake', type: 'compaction', encrypted_content: seal(key, `summary of ${items.length} items`) };
  json(res, {
    id: 'cmp_fake',
    object: 'response.compaction',
    created_at: 1700000000,
    output: [...users, summary],
    usage: {
      input_tokens: usage.prompt,
      input_tokens_details: { cached_tokens: usage.cached ?? 0 },
      output_tokens: usage.completion,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.prompt + usage.completion,
    },
  });
}
