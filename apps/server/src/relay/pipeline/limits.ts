import { hasLimits, type ModelLimits, type RequestLimits } from '@one-hub/contract';
import type { SharedStore } from '../../cache/shared-store.js';
import { HubError } from '../../common/errors.js';
import { RpmWindows } from './rpm-window.js';

/** One set of limits and whose they are: a token, a user, or a model within a group (per user). */
export interface LimitScope {
  /** Names the counters: `t<id>`, `u<id>`, `m<userId>:<group>:<model>`. */
  name: string;
  /** Names the limit in refusals. */
  label: string;
  limits: RequestLimits;
}

type Store = Pick<SharedStore, 'incrWindow' | 'incrBy' | 'get'>;

const MINUTE = 60_000;
const DAY = 86_400_000;
/** A crashed node's in-flight counts fade this long after the scope's last change. */
const INFLIGHT_TTL_SECONDS = 900;

const NONE: LimitScope[] = [];

/** The scopes whose limits apply to one request, in precedence order (token → model in group → user). */
export function limitScopes(
  token: { id: number; limits?: RequestLimits },
  user: { id: number; limits?: RequestLimits },
  group: string,
  model: string,
  groupLimits: ModelLimits | undefined,
): LimitScope[] {
  if (!token.limits && !user.limits && !groupLimits) return NONE;
  const scopes: LimitScope[] = [];
  if (hasLimits(token.limits)) scopes.push({ name: `t${token.id}`, label: 'token', limits: token.limits });
  const perModel = groupLimits?.[model];
  if (perModel) scopes.push({ name: `m${user.id}:${group}:${model}`, label: `model ${model} in group ${group}`, limits: perModel });
  if (hasLimits(user.limits)) scopes.push({ name: `u${user.id}`, label: 'user', limits: user.limits });
  return scopes;
}

const refuse = (message: string, code: string, retryAfter: number) =>
  new HubError(429, message, { type: 'one_hub_error', code, retryAfter: Math.max(1, Math.ceil(retryAfter)) });

/**
 * Per-scope RPM, TPM, in-flight and spending caps, counted in the shared store so they hold
 * across nodes. RPM reuses the chunked per-minute windows; TPM and spend are checked against
 * what settled calls added (so a burst of calls admitted together may pass them by what those
 * calls use); in-flight is one shared counter per scope. Windows are fixed: the UTC minute,
 * day and month.
 */
export class LimitBook {
  private readonly windows: RpmWindows;

  constructor(
    private readonly store: Store,
    /** Replaceable for tests: every window is computed from it. */
    public now: () => number = Date.now,
  ) {
    this.windows = new RpmWindows(store, () => this.now());
  }

  private keys(scope: string) {
    const now = this.now();
    const d = new Date(now);
    return {
      tpm: `relay-tpm:${scope}:${Math.floor(now / MINUTE)}`,
      day: `relay-spend-d:${scope}:${Math.floor(now / DAY)}`,
      month: `relay-spend-m:${scope}:${d.getUTCFullYear() * 12 + d.getUTCMonth()}`,
      inflight: `relay-inflight:${scope}`,
    };
  }

  private untilNextMinute = () => (MINUTE - (this.now() % MINUTE)) / 1000;
  private untilNextDay = () => (DAY - (this.now() % DAY)) / 1000;
  private untilNextMonth() {
    const d = new Date(this.now());
    return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - this.now()) / 1000;
  }

  /** Counts a request in under every scope, or throws a 429 naming the first limit it meets. */
  async enter(scopes: LimitScope[]): Promise<void> {
    await Promise.all(scopes.map((s) => this.checkSettled(s)));
    const entered: LimitScope[] = [];
    try {
      for (const s of scopes) {
        if (!s.limits.max_inflight) continue;
        const key = this.keys(s.name).inflight;
        const n = await this.store.incrBy(key, 1, INFLIGHT_TTL_SECONDS);
        if (n > s.limits.max_inflight) {
          await this.store.incrBy(key, -1, INFLIGHT_TTL_SECONDS);
          throw refuse(`${s.label} limit reached: ${s.limits.max_inflight} concurrent requests (max in flight); retry when one has finished`, 'inflight_limit_exceeded', 1);
        }
        entered.push(s);
      }
      for (const s of scopes) {
        if (s.limits.rpm && !(await this.windows.admit(s.name, s.limits.rpm))) {
          throw refuse(`${s.label} limit reached: ${s.limits.rpm} requests per minute (RPM); retry in ${Math.ceil(this.untilNextMinute())} s`, 'rpm_limit_exceeded', this.untilNextMinute());
        }
      }
    } catch (error) {
      await this.leave(entered);
      throw error;
    }
  }

  /** TPM and spending caps: refused once what settled calls added reaches the limit. */
  private async checkSettled(s: LimitScope): Promise<void> {
    const { tpm, daily_quota: daily, monthly_quota: monthly } = s.limits;
    if (!tpm && !daily && !monthly) return;
    const k = this.keys(s.name);
    const [tokens, day, month] = await Promise.all([tpm ? this.read(k.tpm) : 0, daily ? this.read(k.day) : 0, monthly ? this.read(k.month) : 0]);
    if (tpm && tokens >= tpm) {
      const wait = this.untilNextMinute();
      throw refuse(`${s.label} limit reached: ${tpm} tokens per minute (TPM), ${tokens} used; retry in ${Math.ceil(wait)} s`, 'tpm_limit_exceeded', wait);
    }
    if (daily && day >= daily) {
      throw refuse(`${s.label} limit reached: daily spending cap ${daily} (quota), ${day} spent today (UTC)`, 'daily_quota_exceeded', this.untilNextDay());
    }
    if (monthly && month >= monthly) {
      throw refuse(`${s.label} limit reached: monthly spending cap ${monthly} (quota), ${month} spent this month (UTC)`, 'monthly_quota_exceeded', this.untilNextMonth());
    }
  }

  private async read(key: string): Promise<number> {
    return Number((await this.store.get(key)) ?? 0);
  }

  /** Counts a request out of the in-flight counters it entered (once per successful `enter`). */
  async leave(scopes: LimitScope[]): Promise<void> {
    for (const s of scopes) {
      if (!s.limits.max_inflight) continue;
      const key = this.keys(s.name).inflight;
      const n = await this.store.incrBy(key, -1, INFLIGHT_TTL_SECONDS);
      // The count faded (crashed node, long request) while this one ran: back to zero, not below.
      if (n < 0) await this.store.incrBy(key, -n, INFLIGHT_TTL_SECONDS);
    }
  }

  /** Adds a settled call's tokens (input + output) and cost to the windows of its scopes. */
  async settled(scopes: LimitScope[], tokens: number, quota: number): Promise<void> {
    const adds: Promise<unknown>[] = [];
    for (const s of scopes) {
      const k = this.keys(s.name);
      if (s.limits.tpm && tokens > 0) adds.push(this.store.incrWindow(k.tpm, 120, tokens));
      if (s.limits.daily_quota && quota > 0) adds.push(this.store.incrWindow(k.day, 2 * 86_400, quota));
      if (s.limits.monthly_quota && quota > 0) adds.push(this.store.incrWindow(k.month, 32 * 86_400, quota));
    }
    await Promise.all(adds);
  }
}
