import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/schema.js';

/** What an audited route changes: its kind, where the row lives, and which row the request names. */
export interface AuditTarget {
  kind: string;
  table?: keyof Database;
  /** The column `id` answers (default `id`). */
  column?: string;
  /** The row the request names; undefined for batch routes, which record the request itself. */
  id?: (req: FastifyRequest) => string | number | undefined;
  /** The verb recorded: for batch routes (no row to compare), `reveal_key`, or always `update` (options). */
  action?: string;
}

const param = (name: string) => (req: FastifyRequest) => (req.params as Record<string, string | undefined>)[name];
const field = (name: string) => (req: FastifyRequest) => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
};
const numeric = (read: (req: FastifyRequest) => string | number | undefined) => (req: FastifyRequest) => {
  const n = Number(read(req));
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

const channel = { kind: 'channel', table: 'channels' } as const;
const user = { kind: 'user', table: 'users' } as const;
const group = { kind: 'user_group', table: 'user_groups' } as const;
const price = { kind: 'price', table: 'prices', column: 'model' } as const;
const payment = { kind: 'payment', table: 'payments' } as const;
const redemption = { kind: 'redemption', table: 'redemptions' } as const;
const plan = { kind: 'plan', table: 'plans' } as const;
const subscription = { kind: 'plan', table: 'subscriptions' } as const;

/**
 * Every admin change through /api that the audit log records, by `METHOD route`. A route missing
 * here is not audited: add it in this one table.
 */
export const AUDIT_TARGETS: Record<string, AuditTarget> = {
  'POST /channel/:id/key': { ...channel, id: numeric(param('id')), action: 'reveal_key' },
  'POST /channel/': { ...channel, action: 'create' },
  'PUT /channel/': { ...channel, id: numeric(field('id')) },
  'DELETE /channel/:id': { ...channel, id: numeric(param('id')) },
  'DELETE /channel/disabled': { ...channel, action: 'delete_disabled' },
  'DELETE /channel/batch': { ...channel, action: 'batch_delete' },
  'PUT /channel/batch/del_model': { ...channel, action: 'batch_delete_model' },
  'PUT /channel/batch/azure_api': { ...channel, action: 'batch_azure_api' },
  'PUT /channel_tag/:tag': { ...channel, id: param('tag'), table: undefined, action: 'tag_update' },
  'PUT /channel_tag/:tag/priority': { ...channel, id: param('tag'), table: undefined, action: 'tag_priority' },
  'PUT /channel_tag/:tag/status/:status': { ...channel, id: param('tag'), table: undefined, action: 'tag_status' },
  'DELETE /channel_tag/:tag/disabled': { ...channel, id: param('tag'), table: undefined, action: 'tag_delete_disabled' },
  'DELETE /channel_tag/:tag': { ...channel, id: param('tag'), table: undefined, action: 'tag_delete' },
  'DELETE /channel/:id/tag': { ...channel, id: numeric(param('id')) },
  'POST /model_ownedby/': { kind: 'model', action: 'create' },
  'PUT /model_ownedby/': { kind: 'model', table: 'model_owned_by', id: numeric(field('id')) },
  'DELETE /model_ownedby/:id': { kind: 'model', table: 'model_owned_by', id: numeric(param('id')) },
  'POST /model_info/': { kind: 'model', action: 'create' },
  'PUT /model_info/': { kind: 'model', table: 'model_info', id: numeric(field('id')) },
  'DELETE /model_info/:id': { kind: 'model', table: 'model_info', id: numeric(param('id')) },
  'POST /option/telegram/': { kind: 'option', table: 'telegram_menus', id: numeric(field('id')), action: 'telegram_menu' },
  'DELETE /option/telegram/:id': { kind: 'option', table: 'telegram_menus', id: numeric(param('id')) },
  'PUT /token/admin': { kind: 'token', table: 'tokens', id: numeric(field('id')) },
  'POST /user/': { ...user, column: 'username', id: field('username') },
  'PUT /user/': { ...user, id: numeric(field('id')) },
  'DELETE /user/:id': { ...user, id: numeric(param('id')) },
  'POST /user/manage': { ...user, column: 'username', id: field('username') },
  'POST /user/quota/:id': { ...user, id: numeric(param('id')) },
  'POST /user_group/': { ...group, column: 'symbol', id: field('symbol') },
  'PUT /user_group/': { ...group, id: numeric(field('id')) },
  'PUT /user_group/enable/:id': { ...group, id: numeric(param('id')) },
  'DELETE /user_group/:id': { ...group, id: numeric(param('id')) },
  'POST /prices/single': { ...price, id: field('model') },
  'PUT /prices/single/*': { ...price, id: param('*') },
  'DELETE /prices/single/*': { ...price, id: param('*') },
  'POST /prices/multiple': { ...price, action: 'batch_save' },
  'PUT /prices/multiple/delete': { ...price, action: 'batch_delete' },
  'POST /prices/sync': { ...price, action: 'sync' },
  'PUT /option/': { kind: 'option', table: 'options', column: 'key', id: field('key'), action: 'update' },
  'POST /payment/': { ...payment, action: 'create' },
  'PUT /payment/': { ...payment, id: numeric(field('id')) },
  'DELETE /payment/:id': { ...payment, id: numeric(param('id')) },
  'POST /redemption/': { ...redemption, action: 'create' },
  'PUT /redemption/': { ...redemption, id: numeric(field('id')) },
  'DELETE /redemption/:id': { ...redemption, id: numeric(param('id')) },
  'POST /plan/': { ...plan, action: 'create' },
  'PUT /plan/': { ...plan, id: numeric(field('id')) },
  'DELETE /plan/:id': { ...plan, id: numeric(param('id')) },
  'POST /plan/grant': { ...subscription, action: 'grant' },
  'DELETE /plan/subscription/:id': { ...subscription, id: numeric(param('id')) },
  'PUT /limits/user/:id': { kind: 'limits', table: 'users', id: numeric(param('id')) },
  'PUT /limits/group/:id': { kind: 'limits', table: 'user_groups', id: numeric(param('id')) },
  'DELETE /log/': { kind: 'log', action: 'delete_before' },
};
