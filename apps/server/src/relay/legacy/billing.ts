import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { globalApiLimiter } from '../../http/rate-limit.js';
import { findTokenById } from '../../db/repos/tokens.js';
import { findUserById } from '../../db/repos/users.js';
import { LEASE_KIND, leasedAmount } from '../../db/repos/quota-leases.js';
import { authenticate } from '../pipeline/flow/caller.js';
import { relayState } from '../state.js';

/**
 * Quota (and used quota) the caller's key answers for: its own budget, or its owner's when unlimited.
 * Both count what leased slices hold of the balance: it is still the caller's.
 */
async function budgetOf(ctx: AppContext, tokenId: number, userId: number) {
  const [token, user] = await Promise.all([findTokenById(ctx.db, tokenId), findUserById(ctx.db, userId)]);
  if (!token || !user) throw new HubError(401, '无效的令牌', { type: 'one_hub_error', code: 'invalid_api_key' });
  if (token.unlimited_quota === 1) {
    const quota = user.quota + (await leasedAmount(ctx.db, LEASE_KIND.user, user.id));
    return { total: quota + user.used_quota, used: user.used_quota, expires: token.expired_time };
  }
  const remain = token.remain_quota + (await leasedAmount(ctx.db, LEASE_KIND.token, token.id));
  return { total: remain + token.used_quota, used: token.used_quota, expires: token.expired_time };
}

/**
 * OpenAI's retired billing endpoints (relay.md §4.12), which older clients and other
 * gateways' balance checks still call with a relay key.
 */
export function registerLegacyBilling(app: FastifyInstance, ctx: AppContext): void {
  const limited = { preHandler: globalApiLimiter(ctx) };
  const amount = (quota: number) => (ctx.options.get('DisplayInCurrencyEnabled') ? quota / ctx.options.get('QuotaPerUnit') : quota);
  const caller = async (req: Parameters<typeof authenticate>[2]) => {
    const state = relayState(ctx);
    const { token, user } = await authenticate(ctx, state.callers, req);
    return budgetOf(ctx, token.id, user.id);
  };

  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/dashboard/billing/subscription`, limited, async (req) => {
      const budget = await caller(req);
      const limit = amount(budget.total);
      return {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: limit,
        hard_limit_usd: limit,
        system_hard_limit_usd: limit,
        access_until: budget.expires === -1 ? 0 : budget.expires,
      };
    });
    app.get(`${prefix}/dashboard/billing/usage`, limited, async (req) => {
      const budget = await caller(req);
      return { object: 'list', total_usage: amount(budget.used) * 100 };
    });
  }
}
