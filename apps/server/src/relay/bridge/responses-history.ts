import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { deleteExpiredResponses, insertStoredResponse } from '../../db/repos/stored-responses.js';
import { deleteEndedBackground } from '../../db/repos/background-responses.js';
import { findResponseOwner } from '../responses/owners.js';
import type { Frame } from '../providers/types.js';

/** The conversation so far, as Responses input items. */
export type HistoryItem = Record<string, unknown>;

/** A request's own input as items (a plain string is one user message). */
function inputItems(input: unknown): HistoryItem[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as HistoryItem[]) : [];
}

const notKept = (id: string, why: string) =>
  new HubError(400, `previous_response_id ${id} ${why}: send the whole conversation in input instead`, {
    type: 'invalid_request_error',
    code: 'previous_response_not_found',
  });

/** What the gateway knows of a `previous_response_id`. */
export interface Previous {
  /** The conversation kept for a converted response. */
  history?: HistoryItem[];
  /** The channel keeping a pass-through response upstream: the follow-up must go there. */
  ownerChannel?: number;
}

/**
 * The stored conversation behind `previous_response_id`, or the channel that keeps it upstream;
 * empty when the id is not one the gateway knows. Another user's response is 404 (as an unknown
 * id would be upstream); an expired converted one is a 400 saying so.
 */
export async function loadPrevious(ctx: AppContext, userId: number, id: unknown): Promise<Previous> {
  if (typeof id !== 'string' || !id) return {};
  const row = await findResponseOwner(ctx, id);
  if (!row) return {};
  if (Number(row.user_id) !== userId) throw responseNotFound(id);
  if (!row.items) return row.expires_at > nowSeconds() && row.channel_id ? { ownerChannel: Number(row.channel_id) } : {};
  if (row.expires_at <= nowSeconds()) throw notKept(id, `has expired (responses are kept ${ctx.options.get('ResponsesRetentionHours')} hours)`);
  return { history: JSON.parse(row.items) as HistoryItem[] };
}

/** OpenAI's answer for an id it does not keep, also for another user's: existence is never revealed. */
export const responseNotFound = (id: string) =>
  new HubError(404, `Response with id '${id}' not found.`, { type: 'invalid_request_error', code: 'not_found' });

/** Refusal for a converted request whose previous_response_id the gateway does not hold. */
export function unknownPrevious(id: string): HubError {
  return notKept(id, 'is unknown to this gateway (only responses it produced by conversion are kept, and this channel keeps none)');
}

/**
 * For a channel serving Responses natively: the gateway's earlier turns go into input. Upstream
 * never saw the gateway's item ids, and reasoning it did not produce cannot be verified there,
 * so ids and reasoning items are left out.
 */
export function withHistory(body: Record<string, unknown>, history: HistoryItem[]): Record<string, unknown> {
  const { previous_response_id: _, ...rest } = body;
  const earlier = history.filter((item) => item.type !== 'reasoning').map(({ id: _id, ...item }) => item);
  return { ...rest, input: [...earlier, ...inputItems(body.input)] };
}

interface FinalResponse {
  [field: string]: unknown;
  id: string;
  model: string;
  status: string;
  output: HistoryItem[];
}

/**
 * Keeps a converted answer so a later `previous_response_id` can continue it (unless
 * the request said `store: false` or retention is 0). Awaited before the answer's last
 * bytes go out, so the client's immediate next turn finds it.
 */
export async function rememberResponse(ctx: AppContext, userId: number, channelId: number, request: Record<string, unknown>, history: HistoryItem[] | undefined, response: FinalResponse): Promise<void> {
  const hours = ctx.options.get('ResponsesRetentionHours');
  if (request.store === false || hours <= 0 || response.status === 'failed') return;
  const items = [...(history ?? []), ...inputItems(request.input), ...response.output];
  const now = nowSeconds();
  try {
    await insertStoredResponse(ctx.db, {
      id: response.id,
      user_id: userId,
      channel_id: channelId,
      model: response.model,
      items: JSON.stringify(items),
      response: JSON.stringify(response),
      created_at: now,
      expires_at: now + hours * 3600,
    });
  } catch (error) {
    // The answer is still served; a later previous_response_id gets a clear 400, never a silent loss.
    ctx.log.warn({ err: error, id: response.id }, 'could not keep a converted response');
  }
}

/** The final response object among a converted stream's closing frames. */
export function finalResponseOf(frames: Frame[]): FinalResponse | undefined {
  for (const f of frames) {
    if (typeof f === 'string' || (f.event !== 'response.completed' && f.event !== 'response.incomplete')) continue;
    return (JSON.parse(f.data) as { response: FinalResponse }).response;
  }
  return undefined;
}

/** Deletes expired responses, and ended background ones past retention, every hour (master node only). */
export function sweepStoredResponses(ctx: AppContext): void {
  if (ctx.config.NODE_TYPE !== 'master') return;
  const timer = setInterval(() => {
    deleteExpiredResponses(ctx.db, nowSeconds()).catch((e) => ctx.log.warn({ err: e }, 'stored responses sweep failed'));
    // Ended background responses are kept as long as stored ones (their events replay until then).
    const keep = Math.max(1, ctx.options.get('ResponsesRetentionHours')) * 3600;
    deleteEndedBackground(ctx.db, nowSeconds() - keep).catch((e) => ctx.log.warn({ err: e }, 'background responses sweep failed'));
  }, 3600_000);
  timer.unref();
  ctx.onClose.push(() => clearInterval(timer));
}
