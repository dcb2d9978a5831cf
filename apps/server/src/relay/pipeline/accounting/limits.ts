import { hasLimits, type ModelLimits, type RequestLimits } from '@one-hub/contract';
import type { SharedStore } from '../../../cache/shared-store.js';
import { HubError } from '../../../common/errors.js';
import { RpmWindows } from './rpm-window.js';

/** One set of limits and whose they are: a token, a user, or a model within a group (per user). */
export interface LimitScope {
  /** Names the counters: `t<id>`, `u<id>`, `m<userId>:<group>:<model>`. */
  name: string;
  /** Names the limit in refusals. */
  label: string;
  limits: RequestLimits;
}

type Store = Pick<SharedStore, 'incrWindow' | 'incrBy' | 'get' | 'takeFloor'>;

const MINUTE = 60_000;
const DAY = 86_400_000;
const DAY_PREFIX = 'relay-spend-d:';
const MONTH_PREFIX = 'relay-spend-m:';
/** A crashed node's in-flight counts fade this long after the scope's last change. */
const INFLIGHT_TTL_SECONDS = 900;
/** How often a long call (a realtime session) renews its in-flight counts, well inside their fade. */
export const INFLIGHT_RENEW_MS = 300_000;
/** How long each window's counter outlives its window (seconds). */
const TPM_TTL = 120;
const DAY_TTL = 2 * 86_400;
const MONTH_TTL = 32 * 86_400;

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

/** What one admitted request holds against its scopes' TPM and spending windows until it settles. */
export interface LimitHold {
  scopes: LimitScope[];
  /** Worst-case tokens (prompt estimate + output cap) and quota held at admission. */
  tokens: number;
  quota: number;
  /** The window keys each reservation went to (a late settlement corrects the window it was taken in). */
  keys: Array<{ key: string; ttl: number; amount: number; kind: 'tokens' | 'quota' }>;
  done: boolean;
}

/**
 * Per-scope RPM, TPM, in-flight and spending caps, counted in the shared store so they hold
 * across nodes. RPM reuses the chunked per-minute windows; in-flight is one shared counter per
 * scope. TPM and the daily/monthly caps are reserved at admission like quota holds: the request's
 * worst case (prompt estimate + output cap, and its held quota) is added atomically, and the
 * request is admitted only when what the window held before it (settled plus still reserved)
 * is below the limit; settlement corrects the reservation to the actual figures and a failed
 * request gives it back. So concurrent admissions cannot pile past a limit: a window passes its
 * limit by at most the one request admitted last, however many race. Windows are fixed: the
 * UTC minute, day and month.
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
    const { day, month } = this.spendWindows(now);
    return {
      tpm: `relay-tpm:${scope}:${Math.floor(now / MINUTE)}`,
      day: `${DAY_PREFIX}${scope}:${day}`,
      month: `${MONTH_PREFIX}${scope}:${month}`,
      inflight: `relay-inflight:${scope}`,
    };
  }

  /** The numbers of the current UTC day and month, as the spending-window keys end. */
  private spendWindows(now = this.now()) {
    const d = new Date(now);
    return { day: Math.floor(now / DAY), month: d.getUTCFullYear() * 12 + d.getUTCMonth() };
  }

  private untilNextMinute = () => (MINUTE - (this.now() % MINUTE)) / 1000;
  private untilNextDay = () => (DAY - (this.now() % DAY)) / 1000;
  private untilNextMonth() {
    const d = new Date(this.now());
    return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - this.now()) / 1000;
  }

  /**
   * Counts a request in under every scope, reserving `want` against TPM and the spending caps,
   * or throws a 429 naming the first limit it meets (and keeps nothing).
   */
  async enter(scopes: LimitScope[], want: { tokens: number; quota: number } = { tokens: 0, quota: 0 }): Promise<LimitHold> {
    const hold: LimitHold = { scopes, tokens: Math.max(0, Math.ceil(want.tokens)), quota: Math.max(0, Math.ceil(want.quota)), keys: [], done: false };
    const entered: LimitScope[] = [];
    try {
      for (const s of scopes) await this.reserve(s, hold);
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
      await this.leaveInflight(entered);
      await this.giveBack(hold);
      throw error;
    }
    return hold;
  }

  /** Adds the request's worst case to the scope's TPM and cap windows; refused when the window already held the limit. */
  private async reserve(s: LimitScope, hold: LimitHold): Promise<void> {
    const { tpm, daily_quota: daily, monthly_quota: monthly } = s.limits;
    if (!tpm && !daily && !monthly) return;
    const k = this.keys(s.name);
    const take = async (key: string, ttl: number, amount: number, kind: 'tokens' | 'quota', limit: number) => {
      const after = await this.store.incrWindow(key, ttl, amount);
      hold.keys.push({ key, ttl, amount, kind });
      return after - amount < limit ? undefined : after - amount;
    };
    if (tpm) {
      const before = await take(k.tpm, TPM_TTL, hold.tokens, 'tokens', tpm);
      if (before !== undefined) {
        const wait = this.untilNextMinute();
        throw refuse(`${s.label} limit reached: ${tpm} tokens per minute (TPM), ${before} used or held; retry in ${Math.ceil(wait)} s`, 'tpm_limit_exceeded', wait);
      }
    }
    if (daily) {
      const before = await take(k.day, DAY_TTL, hold.quota, 'quota', daily);
      if (before !== undefined) throw refuse(`${s.label} limit reached: daily spending cap ${daily} (quota), ${before} spent or held today (UTC)`, 'daily_quota_exceeded', this.untilNextDay());
    }
    if (monthly) {
      const before = await take(k.month, MONTH_TTL, hold.quota, 'quota', monthly);
      if (before !== undefined) throw refuse(`${s.label} limit reached: monthly spending cap ${monthly} (quota), ${before} spent or held this month (UTC)`, 'monthly_quota_exceeded', this.untilNextMonth());
    }
  }

  /**
   * Reserves one more call of an entered session (a realtime response) against its scopes' TPM
   * and spending windows, as `enter` does for a request (RPM and in-flight untouched): refused
   * with the same 429, keeping nothing. Corrected by `settled`, given back by `release`.
   */
  async reserveMore(scopes: LimitScope[], want: { tokens: number; quota: number }): Promise<LimitHold> {
    const hold: LimitHold = { scopes, tokens: Math.max(0, Math.ceil(want.tokens)), quota: Math.max(0, Math.ceil(want.quota)), keys: [], done: false };
    try {
      for (const s of scopes) await this.reserve(s, hold);
    } catch (error) {
      await this.giveBack(hold);
      throw error;
    }
    return hold;
  }

  /** Gives back a reservation from `reserveMore` that will never settle (its call ended unsettled). */
  release(hold: LimitHold): Promise<void> {
    return this.giveBack(hold);
  }

  /** Adds a call nothing was reserved for to its scopes' current TPM and spending windows, once its figures are known. */
  async add(scopes: LimitScope[], tokens: number, quota: number): Promise<void> {
    const keys: LimitHold['keys'] = [];
    for (const s of scopes) {
      const k = this.keys(s.name);
      if (s.limits.tpm) keys.push({ key: k.tpm, ttl: TPM_TTL, amount: 0, kind: 'tokens' });
      if (s.limits.daily_quota) keys.push({ key: k.day, ttl: DAY_TTL, amount: 0, kind: 'quota' });
      if (s.limits.monthly_quota) keys.push({ key: k.month, ttl: MONTH_TTL, amount: 0, kind: 'quota' });
    }
    await this.settled({ scopes, tokens: 0, quota: 0, keys, done: false }, tokens, quota);
  }

  /** Tokens settled or held this UTC minute under a scope (`u<id>`, …); counted only while the scope has a TPM limit. */
  async tokensThisMinute(scope: string): Promise<number> {
    return Math.max(0, Number((await this.store.get(this.keys(scope).tpm)) ?? 0));
  }

  /** The spending-window keys a hold counts its quota in (an async task's row records them for its refund). */
  static spendKeys(hold: LimitHold | undefined): string[] {
    return hold ? hold.keys.filter((k) => k.kind === 'quota').map((k) => k.key) : [];
  }

  /** Those of a charge's recorded spending-window keys that are still the current day or month. */
  currentSpendKeys(keys: string[]): string[] {
    const { day, month } = this.spendWindows();
    return keys.filter((key) => {
      const n = key.slice(key.lastIndexOf(':') + 1);
      return key.startsWith(DAY_PREFIX) ? n === String(day) : key.startsWith(MONTH_PREFIX) && n === String(month);
    });
  }

  /**
   * Takes refunded spend back out of spending windows (pass only current ones: a refund never lowers
   * a later window than the one its charge was counted in), never below zero.
   */
  async refundSpend(keys: string[], quota: number): Promise<void> {
    if (quota <= 0) return;
    await Promise.all(keys.map((key) => this.store.takeFloor(key, quota)));
  }

  /** Renews the fade of the in-flight counts a long call holds (a realtime session, every `INFLIGHT_RENEW_MS`). */
  async renewInflight(hold: LimitHold): Promise<void> {
    for (const s of hold.scopes) if (s.limits.max_inflight) await this.store.incrBy(this.keys(s.name).inflight, 0, INFLIGHT_TTL_SECONDS);
  }

  /** Takes back every reservation of a request that ends unsettled (refused or failed). */
  private async giveBack(hold: LimitHold): Promise<void> {
    if (hold.done) return;
    hold.done = true;
    await Promise.all(hold.keys.filter((k) => k.amount > 0).map((k) => this.store.incrWindow(k.key, k.ttl, -k.amount)));
  }

  private async leaveInflight(scopes: LimitScope[]): Promise<void> {
    for (const s of scopes) {
      if (!s.limits.max_inflight) continue;
      const key = this.keys(s.name).inflight;
      const n = await this.store.incrBy(key, -1, INFLIGHT_TTL_SECONDS);
      // The count faded (crashed node, long request) while this one ran: back to zero, not below.
      if (n < 0) await this.store.incrBy(key, -n, INFLIGHT_TTL_SECONDS);
    }
  }

  /** Counts a request out of the in-flight counters it entered, and gives back its reservations if it never settled. */
  async leave(hold: LimitHold): Promise<void> {
    await this.leaveInflight(hold.scopes);
    await this.giveBack(hold);
  }

  /** Corrects the reservations to a settled call's real tokens (input + output) and cost. */
  async settled(hold: LimitHold, tokens: number, quota: number): Promise<void> {
    if (hold.done) return;
    hold.done = true;
    const adds: Promise<unknown>[] = [];
    for (const k of hold.keys) {
      const delta = (k.kind === 'tokens' ? Math.max(0, tokens) : Math.max(0, quota)) - k.amount;
      if (delta !== 0) adds.push(this.store.incrWindow(k.key, k.ttl, delta));
    }
    await Promise.all(adds);
  }
}
