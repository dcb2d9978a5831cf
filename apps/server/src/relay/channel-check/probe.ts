import type { AppContext } from '../../app-context.js';
import type { ChannelRow } from '../../db/repos/channels.js';
import { HubError } from '../../common/errors.js';
import { planAttempt } from '../bridge/plan.js';
import { dialectResponseToHub } from '../bridge/response.js';
import { authorizeUpstream, routeTo } from '../pipeline/flow/attempt.js';
import { sendUpstream } from '../pipeline/flow/upstream.js';
import { relayState } from '../state.js';
import { answerError, outsideFailure, scrubIdentity } from '../../egress/failure.js';
import { parseJsonOr } from '../../common/json.js';

export interface ChatAnswer {
  /** An OpenAI chat completion (converted from the channel's dialect when needed). */
  json?: Record<string, any>;
  error?: HubError;
  /** The upstream body as received, for the report (an admin's: the channel's keys removed, hosts kept). */
  raw: string;
  /** Model name the upstream itself reported. */
  upstreamModel?: string;
}

const RAW_LIMIT = 2_000;

/** One non-stream chat through the channel's adapter (conversion, auth and proxy included). */
export async function probeChat(ctx: AppContext, channel: ChannelRow, model: string, request: Record<string, unknown>): Promise<ChatAnswer> {
  let raw = '';
  try {
    const route = routeTo(channel, model);
    const hub = { ...request, model: route.upstreamModel } as never;
    const plan = planAttempt('chat/completions', route.adapter, () => hub, route.upstreamModel, false, relayState(ctx).convert);
    const body = plan.converted ?? hub;
    const built = route.adapter.buildRequest(plan.endpoint, body, route.target, { stream: false, raw: false, model: route.upstreamModel });
    const req = await authorizeUpstream(route, built, channel.proxy);
    const res = await sendUpstream(req, { proxy: channel.proxy, proxyKey: route.target.key, signal: AbortSignal.timeout(60_000) });
    const text = await res.body.text();
    raw = scrubIdentity(text, channel, true);
    if (res.statusCode >= 400) return { error: outsideFailure(answerError(res.statusCode, text, parseJsonOr<unknown>(text, undefined)), channel, true), raw: raw.slice(0, RAW_LIMIT) };
    let json = JSON.parse(text) as unknown;
    if (route.adapter.transformResponse) json = route.adapter.transformResponse(plan.endpoint, json, body);
    const upstreamModel = (json as { model?: unknown; modelVersion?: unknown }).model ?? (json as { modelVersion?: unknown }).modelVersion;
    const chat = plan.converted ? dialectResponseToHub(route.adapter.dialect, json, model).hub : json;
    return { json: chat as Record<string, any>, raw: raw.slice(0, RAW_LIMIT), upstreamModel: typeof upstreamModel === 'string' ? upstreamModel : undefined };
  } catch (error) {
    const hub = error instanceof HubError ? error : new HubError(502, (error as Error).message, { code: 'broken_answer' });
    return { error: outsideFailure(hub, channel, true), raw: raw.slice(0, RAW_LIMIT) };
  }
}
