import { HubError } from '../../../common/errors.js';

const FATAL_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const FATAL_TYPES = new Set(['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden']);
/** Upstream statuses that speak about the channel's own account: auth, payment, permission, rate. */
const ACCOUNT_STATUSES = new Set([401, 402, 403, 429]);
/** Provider error types/codes of the same kind (OpenAI, Anthropic, Google, AWS names). */
const ACCOUNT_KINDS = /auth|permission|forbidden|denied|quota|billing|balance|credit|rate_?limit|exhausted|api_key|throttl|account/i;

export interface Verdict {
  /** Another channel may succeed: fail over. */
  retry: boolean;
  /** The channel itself is broken (bad key, no balance): a candidate for auto-disable. */
  channelFault: boolean;
}

/**
 * Classifies an upstream failure (pitfalls: failover and auto-disable rows):
 * timeouts, 429 and 5xx fail over; upstream auth/balance problems fail over and
 * blame the channel; other 4xx are the caller's fault and are returned as they are.
 *
 * Disable keywords are looked for only in errors about the channel's account: a 400
 * echoes the caller's input, so a caller could otherwise take a channel down by
 * sending a keyword (`tool_choice: "Permission denied"`).
 */
export function classifyFailure(err: HubError, keywords: string[]): Verdict {
  const aboutAccount = ACCOUNT_STATUSES.has(err.status) || ACCOUNT_KINDS.test(`${err.type} ${err.code ?? ''}`);
  const keywordHit = aboutAccount && keywordIn(err, keywords);
  const channelFault =
    err.status === 401 || FATAL_CODES.has(err.code ?? '') || FATAL_TYPES.has(err.type) || keywordHit || (err.status === 403 && err.type !== 'invalid_request_error');
  if (channelFault) return { retry: true, channelFault: true };
  if (err.status === 408 || err.status === 429 || err.status >= 500 || err.retryable) return { retry: true, channelFault: false };
  return { retry: false, channelFault: false };
}

function keywordIn(err: HubError, keywords: string[]): boolean {
  const text = `${err.message} ${typeof err.upstream === 'string' ? err.upstream : ''}`;
  return keywords.some((k) => k && text.includes(k));
}

/**
 * Failures that say the channel cannot answer right now, though its account is fine: a 200
 * that is not an answer, or nothing at all within FirstByteTimeoutSeconds. The channel is frozen
 * for the model for RetryCooldownSeconds (as after a 429), so neither this request's next attempt
 * nor the caller's own retry waits on it again while a healthy channel is there.
 */
export function freezesChannel(err: HubError): boolean {
  return err.code === 'broken_answer' || err.code === 'first_byte_timeout';
}

/** Seconds to freeze a channel+model after a failure: Retry-After when given, else the cooldown option. */
export function cooldownSeconds(retryAfter: string | string[] | undefined, fallback: number): number {
  const value = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  const seconds = value ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) : fallback;
}

export function noChannel(group: string, model: string): HubError {
  return new HubError(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, { type: 'one_hub_error', code: 'model_not_found' });
}

/** No channel of any group, enabled or not, serves the model: a typo, not an outage, so not worth a retry. */
export function unknownModel(model: string): HubError {
  return new HubError(404, `The model '${model}' does not exist`, { type: 'invalid_request_error', code: 'model_not_found' });
}
