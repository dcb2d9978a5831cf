import type { AppContext } from '../../app-context.js';
import { findUserById, updateUser } from '../../db/repos/users.js';
import { listAllUserGroups, type UserGroupRow } from '../../db/repos/user-groups.js';
import { EVENTS } from '../../cache/events.js';

/**
 * Picks the promotion group for a cumulative spend+balance (in quota units):
 * enabled promotion groups whose [min, max) USD range holds it; the highest min wins.
 */
export function pickPromotionGroup(groups: UserGroupRow[], cumulative: number, quotaPerUnit: number): UserGroupRow | undefined {
  return groups
    .filter((g) => g.enable !== 0 && g.promotion === 1)
    .filter((g) => g.min * quotaPerUnit <= cumulative && (g.max === 0 || cumulative < g.max * quotaPerUnit))
    .sort((a, b) => b.min - a.min)[0];
}

/** After a top-up: moves the user to the matching promotion group. The credit is counted once (fixes the original). */
export async function promoteAfterTopup(ctx: AppContext, userId: number): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user) return;
  const target = pickPromotionGroup(await listAllUserGroups(ctx.db), user.quota + user.used_quota, ctx.options.get('QuotaPerUnit'));
  if (target && target.symbol !== user.group) {
    await updateUser(ctx.db, userId, { group: target.symbol });
    await ctx.store.publish(EVENTS.users, String(userId));
  }
}
