import type { z } from 'zod';
import { REDEMPTION_STATUS, type CreateRedemptionBody, type Redemption, type UpdateRedemptionBody } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { uuidHex } from '../../common/random.js';
import { nowSeconds } from '../../common/time.js';
import {
  deleteRedemption,
  findRedemptionById,
  insertRedemption,
  updateRedemption,
  type RedemptionRow,
} from '../../db/repos/redemptions.js';
import { findPlan } from '../../db/repos/plans.js';
import { transact } from '../../db/retry.js';

export function toRedemptionJson(row: RedemptionRow): Redemption {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    status: row.status,
    name: row.name,
    quota: row.quota,
    created_time: row.created_time,
    redeemed_time: row.redeemed_time,
    used_user_id: row.used_user_id,
    plan_id: Number(row.plan_id),
    count: 0,
  };
}

async function load(ctx: AppContext, id: number): Promise<RedemptionRow> {
  const row = await findRedemptionById(ctx.db, id);
  if (!row) throw apiError(404, 'redemption_not_found');
  return row;
}

export const getRedemption = async (ctx: AppContext, id: number) => toRedemptionJson(await load(ctx, id));

/** A code created with quota 0 is worth 100, as in the original (api.md §10.9). */
export const DEFAULT_REDEMPTION_QUOTA = 100;

/** Creates `count` codes in one transaction and answers their keys. */
export async function createRedemptions(ctx: AppContext, adminId: number, body: z.infer<typeof CreateRedemptionBody>): Promise<string[]> {
  const keys = Array.from({ length: body.count }, () => uuidHex());
  const now = nowSeconds();
  // A "plan" code grants the plan instead of quota.
  if (body.plan_id && !(await findPlan(ctx.db, body.plan_id))) throw apiError(404, 'plan_not_found');
  const quota = body.plan_id ? 0 : body.quota || DEFAULT_REDEMPTION_QUOTA;
  await transact(ctx.db, async (trx) => {
    for (const key of keys) {
      await insertRedemption(trx, { user_id: adminId, key, name: body.name, quota, plan_id: body.plan_id, created_time: now });
    }
  });
  return keys;
}

export async function updateRedemptionById(
  ctx: AppContext,
  body: z.infer<typeof UpdateRedemptionBody>,
  statusOnly: boolean,
): Promise<Redemption> {
  const row = await load(ctx, body.id);
  if (statusOnly) {
    if (body.status === undefined) throw apiError(400, 'invalid_parameter', { field: 'status', detail: 'required' }, { fields: [{ path: 'status', code: 'required', message: 'required' }] });
    if (row.status === REDEMPTION_STATUS.used) throw apiError(400, 'redemption_used_locked');
    if (body.status === REDEMPTION_STATUS.used) throw apiError(400, 'invalid_parameter', { field: 'status', detail: 'a code is marked used only by redeeming it' }, { fields: [{ path: 'status', code: 'invalid_value', message: 'a code is marked used only by redeeming it' }] });
    await updateRedemption(ctx.db, row.id, { status: body.status });
  } else {
    await updateRedemption(ctx.db, row.id, { name: body.name ?? row.name, quota: body.quota ?? row.quota });
  }
  return toRedemptionJson(await load(ctx, row.id));
}

export async function removeRedemption(ctx: AppContext, id: number): Promise<void> {
  if (!(await deleteRedemption(ctx.db, id))) throw apiError(404, 'redemption_not_found');
}
