import { HubError } from '../../common/errors.js';
import type { Usage } from '../providers/types.js';
import { anthropic } from '../providers/anthropic/index.js';
import { atScale, computeQuota, reserveQuota, type Price } from '../pipeline/accounting/pricing.js';
import { estimateBytes } from '../tokenizer.js';

/**
 * Anthropic Message Batches, the pure part (issue 36 item 5): the create body read and checked,
 * the worst case it is held at, its results priced, and the batch object as a client sees it.
 */

/** Anthropic's batch discount: what a channel's batch price ratio is when its plugin sets none. */
export const DEFAULT_BATCH_RATIO = 0.5;
/** Anthropic's own cap on the requests of one batch. */
export const MAX_BATCH_REQUESTS = 100_000;
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

export interface BatchRequest {
  customId: string;
  model: string;
  maxTokens: number;
  params: Record<string, unknown>;
}

/** How an ended batch's results are priced, kept on its row (`requests`). */
export interface BatchPricing {
  ratio: number;
  groupRatio: number;
  /** custom_id → the model its request is billed as. */
  models: Record<string, string>;
  /** The spending-cap windows its charge was counted in (refunded what the results did not cost). */
  caps?: string[];
}

const invalid = (message: string) => new HubError(400, message, { type: 'invalid_request_error', code: 'invalid_request_error' });
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The create body `{requests: [{custom_id, params}]}`, checked as far as pricing and routing need it (upstream checks the rest). */
export function readCreate(body: unknown): BatchRequest[] {
  if (!isObject(body)) throw invalid('request body must be a JSON object');
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length === 0) throw invalid('requests: at least one request is required');
  if (requests.length > MAX_BATCH_REQUESTS) throw invalid(`requests: at most ${MAX_BATCH_REQUESTS} requests per batch`);
  const seen = new Set<string>();
  return requests.map((r, i) => {
    if (!isObject(r)) throw invalid(`requests.${i}: must be an object`);
    const id = r.custom_id;
    if (typeof id !== 'string' || !CUSTOM_ID.test(id)) throw invalid(`requests.${i}.custom_id: 1 to 64 letters, digits, '-' or '_'`);
    if (seen.has(id)) throw invalid(`requests.${i}.custom_id: '${id}' is used twice; custom_id must be unique within a batch`);
    seen.add(id);
    const params = r.params;
    if (!isObject(params)) throw invalid(`requests.${i}.params: Field required`);
    if (typeof params.model !== 'string' || !params.model) throw invalid(`requests.${i}.params.model: Field required`);
    const max = params.max_tokens;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) throw invalid(`requests.${i}.params.max_tokens: must be a positive integer`);
    if (params.stream === true) throw invalid(`requests.${i}.params.stream: batch requests cannot stream`);
    return { customId: id, model: params.model, maxTokens: max, params };
  });
}

/** The channel's batch price ratio: its `batch.price_ratio` plugin setting, else Anthropic's discount. */
export function batchRatio(plugin: Record<string, Record<string, unknown>> | undefined): number {
  const set = plugin?.batch?.price_ratio;
  const n = typeof set === 'string' && set.trim() !== '' ? Number(set) : typeof set === 'number' ? set : NaN;
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_BATCH_RATIO;
}

/** The most one request can cost: its prompt, estimated as the Claude door estimates it, plus its max_tokens. */
export function requestWorstCase(r: BatchRequest, price: Price, groupRatio: number): number {
  const prompt = estimateBytes(Buffer.byteLength(JSON.stringify(r.params)));
  return reserveQuota(price, groupRatio, prompt, r.maxTokens, 0);
}

/** What the succeeded messages of one model cost, and their usage, for its log row. */
export interface ModelCharge {
  model: string;
  cost: number;
  succeeded: number;
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface PricedResults {
  byModel: ModelCharge[];
  counts: { succeeded: number; errored: number; canceled: number; expired: number };
}

/**
 * Prices a results file (JSONL of `{custom_id, result: {type, message}}`): each succeeded
 * message at its usage, its model's price at the batch ratio and the creator's group ratio, as
 * one request; errored, canceled and expired requests cost nothing. A line naming a custom_id
 * the batch did not have is ignored.
 */
export function priceResults(jsonl: string, pricing: BatchPricing, priceOf: (model: string) => Price): PricedResults {
  const byModel = new Map<string, ModelCharge>();
  const counts = { succeeded: 0, errored: 0, canceled: 0, expired: 0 };
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let entry: { custom_id?: unknown; result?: { type?: unknown; message?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    const type = entry.result?.type;
    if (type === 'errored' || type === 'canceled' || type === 'expired') counts[type]++;
    if (type !== 'succeeded' || typeof entry.custom_id !== 'string') continue;
    const model = pricing.models[entry.custom_id];
    if (model === undefined) continue;
    counts.succeeded++;
    const usage: Usage | null = anthropic.parseUsage('messages', entry.result!.message);
    const c = byModel.get(model) ?? { model, cost: 0, succeeded: 0, promptTokens: 0, completionTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    c.succeeded++;
    if (usage) {
      c.cost += computeQuota(usage, atScale(priceOf(model), pricing.ratio), pricing.groupRatio);
      c.promptTokens += usage.promptTokens;
      c.completionTokens += usage.completionTokens;
      c.cacheReadTokens += usage.cachedTokens + usage.cacheReadTokens;
      c.cacheWriteTokens += usage.cacheWriteTokens + usage.cacheWrite1hTokens;
    }
    byModel.set(model, c);
  }
  return { byModel: [...byModel.values()], counts };
}

/**
 * Splits what a batch is billed (at most what it held) over its models' log rows, so the rows
 * add up to the charge exactly; a cost above the hold is cut from the last rows.
 */
export function splitCharge(byModel: ModelCharge[], held: number): Array<ModelCharge & { quota: number }> {
  let left = held;
  return byModel.map((c) => {
    const quota = Math.min(c.cost, left);
    left -= quota;
    return { ...c, quota };
  });
}

/** The batch object a client reads: its results are fetched from the gateway, never from the upstream host. */
export function batchView(batch: Record<string, unknown>, origin: string): Record<string, unknown> {
  const id = String(batch.id ?? '');
  return { ...batch, results_url: batch.results_url ? `${origin}/v1/messages/batches/${encodeURIComponent(id)}/results` : null };
}
