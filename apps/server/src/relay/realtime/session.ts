import { WebSocket, type RawData } from 'ws';
import { LOG_TYPE } from '@one-hub/contract';
import { requestLogFields } from '../pipeline/settle.js';
import { emptyUsage, type Usage } from '../providers/types.js';
import { computeQuota, type Price } from '../pipeline/pricing.js';
import type { RelayState } from '../pipeline/relay-state.js';
import type { Caller } from '../pipeline/caller.js';
import { SAFETY_CODE, SAFETY_MESSAGE } from '../pipeline/content-safety.js';
import type { RoutedChannel } from '../pipeline/attempt.js';

/** Unsettled spend of a user's open sessions, shared by every node through the store (relay.md §4.11). */
export const inflightKey = (userId: number) => `user_realtime_quota:${userId}`;
const INFLIGHT_TTL = 86_400;

/** A session with no message either way for this long is closed (relay.md §4.11). */
export const realtimeTiming = { idleMs: 120_000 };

export interface SessionInfo {
  state: RelayState;
  caller: Caller;
  route: RoutedChannel;
  price: Price;
  group: string;
  groupRatio: number;
  /** The owner's balance when the session opened; all of the owner's open sessions together may spend it. */
  userQuota: number;
  /** What a limited token has left (Infinity when unlimited). */
  tokenBudget: number;
  requestId: string;
  ip: string;
  startedAt: number;
}

interface RealtimeUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_token_details?: { cached_tokens?: number; audio_tokens?: number };
  output_token_details?: { audio_tokens?: number };
}

/** EnableSafe on client events: a frame with a forbidden word is answered with an error event and never forwarded. */
function refusedFrame(client: WebSocket, data: RawData, info: SessionInfo): boolean {
  const { safety } = info.state;
  if (!safety.active()) return false;
  let event: unknown;
  try {
    event = JSON.parse(data.toString());
  } catch {
    return false;
  }
  const word = safety.find(event);
  if (word === undefined) return false;
  info.state.ctx.log.warn({ userId: info.caller.user.id, tokenId: info.caller.token.id, door: '/v1/realtime', word }, 'content safety: event refused');
  const error = { type: 'error', event_id: `evt_${info.requestId}`, error: { type: 'invalid_request_error', code: SAFETY_CODE, message: SAFETY_MESSAGE, param: null } };
  if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify(error));
  return true;
}

/** Close codes a peer may send (1005, 1006 and 1015 only describe a close, they are never sent). */
const sendable = (code: number) => (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);

function addUsage(total: Usage, u: RealtimeUsage): Usage {
  return {
    ...total,
    promptTokens: total.promptTokens + (u.input_tokens ?? 0),
    completionTokens: total.completionTokens + (u.output_tokens ?? 0),
    cachedTokens: total.cachedTokens + (u.input_token_details?.cached_tokens ?? 0),
    audioInputTokens: total.audioInputTokens + (u.input_token_details?.audio_tokens ?? 0),
    audioOutputTokens: total.audioOutputTokens + (u.output_token_details?.audio_tokens ?? 0),
  };
}

/**
 * Pipes one realtime session both ways, frame for frame. Every `response.done` usage is
 * priced as it arrives; when the session has spent the caller's budget the client gets
 * an `insufficient_quota` error event and both sides close. The whole session is settled
 * once, when either side closes.
 */
export function runSession(client: WebSocket, upstream: WebSocket, info: SessionInfo): void {
  let usage = emptyUsage();
  let spent = 0;
  let closed = false;
  let idle: NodeJS.Timeout;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => finish(1000, 'idle timeout'), realtimeTiming.idleMs);
  };

  const finish = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    clearTimeout(idle);
    for (const ws of [client, upstream]) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason);
    }
    settleSession(info, usage, spent);
    // The recorder owns this spend now; drop it from the in-flight total.
    if (spent) void info.state.ctx.store.incrBy(inflightKey(info.caller.user.id), -spent, INFLIGHT_TTL);
  };

  client.on('message', (data: RawData, isBinary: boolean) => {
    touch();
    if (!isBinary && refusedFrame(client, data, info)) return;
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
  });
  upstream.on('message', (data: RawData, isBinary: boolean) => {
    touch();
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
    if (isBinary) return;
    const text = data.toString();
    if (!text.includes('"response.done"')) return;
    let event: { type?: string; response?: { usage?: RealtimeUsage } };
    try {
      event = JSON.parse(text);
    } catch {
      return;
    }
    if (event.type !== 'response.done' || !event.response?.usage) return;
    usage = addUsage(usage, event.response.usage);
    const before = spent;
    spent = computeQuota(usage, info.price, info.groupRatio);
    void info.state.ctx.store.incrBy(inflightKey(info.caller.user.id), spent - before, INFLIGHT_TTL).then((inflight) => {
      if (inflight < info.userQuota && spent < info.tokenBudget) return;
      const error = { type: 'error', event_id: `evt_${info.requestId}`, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'user quota is not enough', param: null } };
      if (!closed && client.readyState === WebSocket.OPEN) client.send(JSON.stringify(error));
      finish(1008, 'quota exhausted');
    });
  });
  client.on('close', () => finish(1000, 'client closed'));
  upstream.on('close', (code) => finish(sendable(code) ? code : 1011, 'upstream closed'));
  client.on('error', () => finish(1011, 'client error'));
  upstream.on('error', () => finish(1011, 'upstream error'));
  touch();
  upstream.resume();
}

function settleSession(info: SessionInfo, usage: Usage, quota: number): void {
  const { state, caller, route } = info;
  const { user, token } = caller;
  state.recorder.settle({ userId: user.id, tokenId: token.id, unlimited: token.unlimited_quota === 1, channelId: route.row.id, billed: quota });
  if (!state.ctx.options.get('LogConsumeEnabled')) return;
  state.recorder.log({
    type: LOG_TYPE.consume,
    ...requestLogFields({ ...info, stream: true }, info.requestId, info.ip),
    channel_id: route.row.id,
    model_name: route.billedModel,
    quota,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cache_read_tokens: usage.cachedTokens,
    content: 'realtime session',
    metadata: JSON.stringify({
      msg: { key: 'realtime_session', args: {} },
      group_name: info.group,
      group_ratio: info.groupRatio,
      input_ratio: info.price.input,
      output_ratio: info.price.output,
      ...(usage.audioInputTokens ? { input_audio_tokens: usage.audioInputTokens } : {}),
      ...(usage.audioOutputTokens ? { output_audio_tokens: usage.audioOutputTokens } : {}),
    }),
  });
}
