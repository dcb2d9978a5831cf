import type { AppContext } from '../../app-context.js';
import { LEASE_KIND, withLeased } from '../../db/repos/quota-leases.js';

/**
 * Users as shown (self, admin views, the bot, the billing endpoints): `quota` is the balance the
 * user actually has, the column plus the unused part of slices leased by any node.
 */
export const withUserBalances = <T extends { id: number; quota: number }>(ctx: AppContext, rows: T[]): Promise<T[]> =>
  withLeased(ctx.db, LEASE_KIND.user, rows, 'quota');

export const withUserBalance = async <T extends { id: number; quota: number }>(ctx: AppContext, row: T): Promise<T> => (await withUserBalances(ctx, [row]))[0];
