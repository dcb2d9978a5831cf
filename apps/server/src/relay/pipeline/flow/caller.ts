import type { FastifyRequest } from 'fastify';
import { readLimits, ROLE, TOKEN_STATUS, USER_STATUS, type RequestLimits, type TokenSetting } from '@one-hub/contract';
import type { AppContext } from '../../../app-context.js';
import { HubError } from '../../../common/errors.js';
import { nowSeconds } from '../../../common/time.js';
import { EVENTS } from '../../../cache/events.js';
import { findTokenByKey, readTokenSetting, type TokenRow } from '../../../db/repos/tokens.js';
import { findUserById, type UserRow } from '../../../db/repos/users.js';
import { ipAllowed } from './ip-match.js';

export interface Caller {
  token: TokenRow;
  user: UserRow;
  setting: TokenSetting;
  /** The owner's request limits, set by an admin (parsed once per cache entry). */
  userLimits?: RequestLimits;
  /** Admin `#<id>` pin and `#!<id>` exclusion. */
  pinnedChannel?: number;
  excludedChannel?: number;
}

interface Entry {
  token: TokenRow;
  user: UserRow;
  setting: TokenSetting;
  userLimits?: RequestLimits;
  loadedAt: number;
}

const TTL_MS = 60_000;
/**
 * How old an entry may be while the shared store is degraded: other nodes' change notices may not
 * arrive, so a disabled token or banned user is re-read from the database at most this late.
 */
export const DEGRADED_STALE_MS = 2_000;
const MAX_ENTRIES = 50_000;

/**
 * Token + owner rows by key, dropped on any token or user change (all nodes hear it). While the
 * shared store is degraded entries live DEGRADED_STALE_MS instead of TTL_MS, and when it recovers
 * they are all dropped (notices sent during the outage were missed).
 */
export class CallerCache {
  private entries = new Map<string, Entry>();
  /** One database read per key at a time, however many requests wait for it. */
  private loading = new Map<string, Promise<Entry | null>>();
  /** Bumped on every drop: a read that started before it is answered but not kept. */
  private generation = 0;

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.tokens, (id) => this.drop(id, (e, n) => e.token.id === n));
    ctx.store.subscribe(EVENTS.users, (id) => this.drop(id, (e, n) => e.user.id === n));
    ctx.store.onRecover(() => this.drop(''));
  }

  /**
   * Drops the entries of the token or user a notice names ('' or anything else: all of them). One
   * user's change must not send every other caller back to the database: with thousands of active
   * users that is thousands of reads in the next second.
   */
  private drop(message: string, names?: (e: Entry, id: number) => boolean): void {
    const id = Number(message);
    this.loading.clear();
    this.generation++;
    if (!names || !message || !Number.isInteger(id) || id <= 0) {
      this.entries.clear();
      return;
    }
    for (const [key, e] of this.entries) if (names(e, id)) this.entries.delete(key);
  }

  lookup(key: string): Promise<Entry | null> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.loadedAt < (this.ctx.store.degraded ? DEGRADED_STALE_MS : TTL_MS)) return Promise.resolve(hit);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(key).finally(() => {
        if (this.loading.get(key) === pending) this.loading.delete(key);
      });
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async load(key: string): Promise<Entry | null> {
    const loadedAt = Date.now();
    const generation = this.generation;
    const token = await findTokenByKey(this.ctx.db, key);
    const user = token ? await findUserById(this.ctx.db, token.user_id) : undefined;
    if (!token || !user) return null;
    const setting = readTokenSetting(token.setting);
    const entry = { token, user, setting, userLimits: readLimits(user.limits), loadedAt };
    if (generation !== this.generation) return entry;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, entry);
    return entry;
  }
}

const invalid = () => new HubError(401, '无效的令牌', { type: 'one_hub_error', code: 'invalid_api_key' });

/** The raw key from the caller's headers: Bearer and `sk-` removed. */
export type KeyReader = 'openai' | 'claude' | 'gemini' | 'midjourney';

export function readKey(req: FastifyRequest, reader: KeyReader = 'openai'): string {
  const h = req.headers;
  const query = req.query as Record<string, string | undefined>;
  let raw: string | undefined;
  if (reader === 'claude') raw = (h['x-api-key'] as string | undefined) ?? h.authorization;
  else if (reader === 'gemini') raw = (h['x-goog-api-key'] as string | undefined) ?? query?.key ?? h.authorization;
  else if (reader === 'midjourney') raw = h['mj-api-secret'] as string | undefined;
  else raw = h.authorization;
  return (raw ?? '').trim().replace(/^Bearer /, '').replace(/^sk-/, '');
}

/** Relay authentication (relay.md §1.3, §2.1): token state, owner state, IP limits, admin directives. */
export async function authenticate(ctx: AppContext, cache: CallerCache, req: FastifyRequest, reader: KeyReader = 'openai'): Promise<Caller> {
  const [key, directive, flag] = readKey(req, reader).split('#');
  if (!key || key.length < 32) throw invalid();
  const entry = await cache.lookup(key);
  if (!entry || entry.user.status !== USER_STATUS.enabled) throw invalid();
  const { token, user, setting, userLimits } = entry;
  if (token.status === TOKEN_STATUS.exhausted) throw new HubError(401, '令牌额度已用尽', { type: 'one_hub_error', code: 'token_exhausted' });
  if (token.status === TOKEN_STATUS.expired) throw new HubError(401, '令牌已过期', { type: 'one_hub_error', code: 'token_expired' });
  if (token.status !== TOKEN_STATUS.enabled) throw new HubError(401, '令牌状态不可用', { type: 'one_hub_error', code: 'token_disabled' });
  if (token.expired_time !== -1 && token.expired_time < nowSeconds()) throw new HubError(401, '令牌已过期', { type: 'one_hub_error', code: 'token_expired' });
  const ipRule = setting.limits.limits_ip_setting;
  if (ipRule.enabled && ipRule.whitelist.length && !ipAllowed(req.ip, ipRule.whitelist)) {
    throw new HubError(403, `IP ${req.ip} is not allowed to access`, { type: 'one_hub_error', code: 'ip_not_allowed' });
  }
  const caller: Caller = { token, user, setting, userLimits };
  if (directive !== undefined) {
    if (user.role < ROLE.admin) throw new HubError(403, '普通用户不支持指定渠道', { type: 'one_hub_error' });
    if (directive.startsWith('!')) caller.excludedChannel = Number(directive.slice(1)) || 0;
    else if (flag !== 'ignore') {
      const id = Number(directive);
      if (!Number.isInteger(id) || id <= 0) throw new HubError(403, '无效的渠道 Id', { type: 'one_hub_error' });
      caller.pinnedChannel = id;
    }
  }
  return caller;
}

/** The token's model whitelist (exact names, before mapping). */
export function checkModelAllowed(caller: Caller, model: string): void {
  const rule = caller.setting.limits.limit_model_setting;
  if (!rule.enabled) return;
  if (!rule.models.length) throw new HubError(403, 'No available models configured for current token', { code: 'model_not_allowed' });
  if (!rule.models.includes(model)) throw new HubError(403, `Model ${model} is not supported for current token`, { code: 'model_not_allowed' });
}
