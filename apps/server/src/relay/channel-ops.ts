import type { AppContext } from '../app-context.js';
import type { ChannelRow } from '../db/repos/channels.js';
import { planAttempt } from './bridge/plan.js';
import { apiErrorText, type ApiErrorArgs, type ApiErrorCode } from '@one-hub/contract';
import { HubError } from '../common/errors.js';
import { parseJsonOr } from '../common/json.js';
import { nowSeconds } from '../common/time.js';
import { authorizeUpstream, routeTo } from './pipeline/flow/attempt.js';
import { sendUpstream } from './pipeline/flow/upstream.js';
import { autoDisable, autoEnable } from './pipeline/routing/auto-disable.js';
import { splitList } from './pipeline/routing/channel-index.js';
import { relayState } from './state.js';
import type { UpstreamRequest } from './providers/types.js';
import type { HubRequest } from './formats/index.js';
import { testRequest } from './test-request.js';
import { notifyAdmins } from '../notify/index.js';
import { classifyFailure } from './pipeline/routing/failure.js';

/**
 * What the console's channel screens ask of the relay: it alone knows how to
 * talk to each provider.
 */
export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds the test request took. */
  time: number;
  /** A failure that says the channel is broken (not the probe): unreachable, 5xx, bad key, no balance. */
  channelFault?: boolean;
  /** Answered, but slower than ChannelDisableThreshold. */
  slow?: boolean;
  /** A failure's console code and its arguments. */
  code?: ApiErrorCode;
  args?: ApiErrorArgs;
}

/** Sends a one-word request of the model's kind (relay.md §7.1) to the channel's test model (or the given one) and records the latency. */
export async function testChannel(ctx: AppContext, channel: ChannelRow, model?: string): Promise<ChannelTestResult> {
  const testModel = model || channel.test_model || splitList(channel.models).find((m) => !m.endsWith('*'));
  if (!testModel) return { success: false, message: apiErrorText('test_model_missing'), code: 'test_model_missing', time: 0 };
  const started = Date.now();
  try {
    const route = routeTo(channel, testModel);
    const { endpoint, body } = testRequest(route.upstreamModel, route.adapter);
    // Channels of another dialect (Anthropic, Gemini) get the test chat converted.
    const plan = planAttempt(endpoint, route.adapter, () => body as unknown as HubRequest, route.upstreamModel, false, relayState(ctx).convert);
    const built = route.adapter.buildRequest(plan.endpoint, plan.converted ?? body, route.target, { stream: false, raw: false, model: route.upstreamModel });
    const req = await authorizeUpstream(route, built, channel.proxy);
    const res = await sendUpstream(req, { proxy: channel.proxy, proxyKey: route.target.key, signal: AbortSignal.timeout(60_000) });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw route.adapter.mapError(res.statusCode, text);
    // Some providers (Tencent, Spark) report failures inside a 200 answer.
    const answer = parseJsonOr<unknown>(text, undefined); // stream-only providers answer SSE
    if (route.adapter.transformResponse && answer !== undefined) route.adapter.transformResponse(plan.endpoint, answer, plan.converted ?? body);
    const ms = Date.now() - started;
    await ctx.db.updateTable('channels').set({ response_time: ms, test_time: nowSeconds() }).where('id', '=', channel.id).execute();
    const slow = ms > ctx.options.get('ChannelDisableThreshold') * 1000;
    if (!slow) await autoEnable(relayState(ctx), channel);
    return { success: true, message: slow ? `响应时间 ${(ms / 1000).toFixed(2)}s 超过阈值` : '', time: ms / 1000, slow };
  } catch (error) {
    const hub = error instanceof HubError ? error : new HubError(502, (error as Error).message);
    if (hub.status === 401 || hub.status === 403) await autoDisable(relayState(ctx), channel, hub.message);
    const verdict = classifyFailure(hub, ctx.options.get('DisableChannelKeywords').split('\n').map((k) => k.trim()));
    const channelFault = verdict.channelFault || hub.status >= 500;
    return { success: false, message: hub.message, code: 'channel_test_failed', args: { reason: hub.message }, time: (Date.now() - started) / 1000, channelFault };
  }
}

/** Model ids the provider lists for this channel's key (OAuth providers such as Vertex authorize first). */
export async function fetchUpstreamModels(ctx: AppContext, channel: ChannelRow): Promise<string[]> {
  void ctx;
  const route = routeTo(channel, '');
  const { adapter } = route;
  const get = async (req: UpstreamRequest) => {
    const authorized = await authorizeUpstream(route, req, channel.proxy);
    const res = await sendUpstream(authorized, { method: 'GET', proxy: channel.proxy, proxyKey: route.target.key, signal: AbortSignal.timeout(30_000) });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw adapter.mapError(res.statusCode, text);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new HubError(502, 'model list answer is not JSON');
    }
  };
  if (adapter.listModels) return adapter.listModels(route.target, get, splitList(channel.models));
  if (!adapter.modelsRequest || !adapter.parseModels) throw new HubError(400, '该渠道类型不支持获取模型列表');
  return adapter.parseModels(await get(adapter.modelsRequest(route.target)));
}

/** Current upstream balance (provider currency), or null when the provider has no balance API. */
export async function queryBalance(ctx: AppContext, channel: ChannelRow): Promise<number | null> {
  const route = routeTo(channel, '');
  if (!route.adapter.fetchBalance) return null;
  const balance = await route.adapter.fetchBalance(route.target, async (req) => {
    const res = await sendUpstream(req, { method: 'GET', proxy: channel.proxy, proxyKey: route.target.key, signal: AbortSignal.timeout(30_000) });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw route.adapter.mapError(res.statusCode, text);
    try {
      return JSON.parse(text);
    } catch {
      throw new HubError(502, 'balance answer is not JSON');
    }
  });
  if (balance !== null) {
    await ctx.db.updateTable('channels').set({ balance, balance_updated_time: nowSeconds() }).where('id', '=', channel.id).execute();
    const threshold = ctx.config.NOTIFY_CHANNEL_BALANCE_THRESHOLD;
    // Told once per crossing: only when the previous reading was above the threshold (or never taken).
    const before = channel.balance_updated_time ? channel.balance : Infinity;
    if (threshold > 0 && balance < threshold && before >= threshold) {
      notifyAdmins(ctx, { event: 'channel_balance_low', title: `通道「${channel.name}」（#${channel.id}）余额不足 (channel balance low)`, text: `余额 (balance): ${balance} < ${threshold}` });
    }
  }
  return balance;
}
