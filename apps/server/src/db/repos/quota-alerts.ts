import { sql } from 'kysely';
import type { Db } from '../index.js';
import { wholeUserQuota } from './quota-leases.js';

export interface QuotaAlertSetting {
  threshold: number;
  channel: string;
}

export interface DueQuotaAlert {
  id: number;
  quota: number;
  threshold: number;
  channel: string;
  email: string;
  telegram_id: number;
}

export async function findQuotaAlert(db: Db, userId: number): Promise<QuotaAlertSetting | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['quota_alert_threshold as threshold', 'quota_alert_channel as channel'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { threshold: Number(row.threshold), channel: row.channel };
}

/** A new setting starts a fresh crossing: a balance already below it is told once. */
export async function saveQuotaAlert(db: Db, userId: number, s: QuotaAlertSetting): Promise<void> {
  await db
    .updateTable('users')
    .set({ quota_alert_threshold: s.threshold, quota_alert_channel: s.channel, quota_alert_sent: 0 })
    .where('id', '=', userId)
    .execute();
}

/**
 * Balances back at or above their threshold may be told again on the next dip. Both checks judge
 * the whole balance (leased slices included): the column alone dips whenever a node takes a slice.
 */
export async function rearmQuotaAlerts(db: Db): Promise<void> {
  await db.updateTable('users').set({ quota_alert_sent: 0 }).where('quota_alert_sent', '=', 1).where(sql<boolean>`${wholeUserQuota} >= quota_alert_threshold`).execute();
}

/** Enabled users whose whole balance is below their threshold and who were not told yet. */
export async function dueQuotaAlerts(db: Db, limit: number): Promise<DueQuotaAlert[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', wholeUserQuota.as('quota'), 'quota_alert_threshold as threshold', 'quota_alert_channel as channel', 'email', 'telegram_id'])
    .where('quota_alert_threshold', '>', 0)
    .where('quota_alert_channel', '<>', '')
    .where('quota_alert_sent', '=', 0)
    .where('status', '=', 1)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`${wholeUserQuota} < quota_alert_threshold`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, quota: Number(r.quota), threshold: Number(r.threshold), telegram_id: Number(r.telegram_id) }));
}

/** Marks (sent 1) or un-marks (sent 0) an alert; true only for the caller that flipped it. */
export async function markQuotaAlert(db: Db, userId: number, sent: 0 | 1): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ quota_alert_sent: sent })
    .where('id', '=', userId)
    .where('quota_alert_sent', '=', sent ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
