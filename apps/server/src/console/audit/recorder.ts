import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROLE } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { nowSeconds } from '../../common/time.js';
import { deleteAuditLogsBefore, findRowForAudit, insertAuditLog } from '../../db/repos/audit-logs.js';
import { AUDIT_TARGETS, type AuditTarget } from './targets.js';
import { maskRecord } from './mask.js';

type Row = Record<string, unknown>;
type Diff = Record<string, { before: unknown; after: unknown }>;

interface Pending {
  target: AuditTarget;
  id?: string | number;
  before?: Row;
}

declare module 'fastify' {
  interface FastifyRequest {
    audit?: Pending;
  }
}

/** Changed fields, compared raw and shown masked; `null` stands for a row that did not exist. */
export function diffRows(kind: string, before: Row | undefined, after: Row | undefined): Diff {
  const shownBefore = maskRecord(kind, before);
  const shownAfter = maskRecord(kind, after);
  const diff: Diff = {};
  for (const k of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    if (JSON.stringify(before?.[k] ?? null) === JSON.stringify(after?.[k] ?? null)) continue;
    diff[k] = { before: before ? (shownBefore![k] ?? null) : null, after: after ? (shownAfter![k] ?? null) : null };
  }
  return diff;
}

function load(ctx: AppContext, p: Pending): Promise<Row | undefined> {
  const { table, column = 'id' } = p.target;
  return table && p.id !== undefined ? findRowForAudit(ctx.db, table, column, p.id) : Promise.resolve(undefined);
}

/** The request body of a batch route, masked: what was asked, since there is no one row to compare. */
const requestOf = (kind: string, req: FastifyRequest): Row => ({ request: maskRecord(kind, { ...(req.body as Row | undefined), ...(req.query as Row | undefined) }) });

const lastPrune = new WeakMap<AppContext, { at: number; days: number }>();

/** Rows older than AuditLogRetentionDays go: at most once an hour per node, and when the option changes. */
async function prune(ctx: AppContext): Promise<void> {
  const days = ctx.options.get('AuditLogRetentionDays');
  const last = lastPrune.get(ctx);
  if (!days || (last && last.days === days && Date.now() - last.at < 3_600_000)) return;
  lastPrune.set(ctx, { at: Date.now(), days });
  await deleteAuditLogsBefore(ctx.db, nowSeconds() - days * 86_400);
}

async function record(ctx: AppContext, req: FastifyRequest, p: Pending): Promise<void> {
  const actor = req.user!;
  const after = p.target.action === 'reveal_key' ? undefined : await load(ctx, p);
  let action = p.target.action;
  let diff: Diff;
  if (action === 'reveal_key') diff = { key: diffRows(p.target.kind, undefined, { key: p.before?.key }).key ?? { before: null, after: null } };
  else if (p.before || after) {
    diff = diffRows(p.target.kind, p.before, after);
    if (!Object.keys(diff).length) return; // nothing changed: nothing to record
    // Soft-deleted rows stay in their table with `deleted_at` set.
    const deleted = !after || Boolean(after.deleted_at && !p.before?.deleted_at);
    action ??= !p.before ? 'create' : deleted ? 'delete' : 'update';
  } else diff = { request: { before: null, after: requestOf(p.target.kind, req).request } };
  await insertAuditLog(ctx.db, {
    created_at: nowSeconds(),
    actor_id: actor.id,
    actor_name: actor.username,
    actor_role: actor.role,
    ip: req.ip,
    action: action ?? 'update',
    target_kind: p.target.kind,
    target_id: p.id === undefined ? '' : String(p.id),
    diff: JSON.stringify(diff),
  });
  await prune(ctx);
}

const succeeded = (reply: FastifyReply, payload: unknown) =>
  reply.statusCode < 300 && !(typeof payload === 'string' && payload.startsWith('{"success":false'));

/**
 * The admin audit log, for every route in AUDIT_TARGETS: the named row is read before the route
 * runs and again after it answered successfully; an administrator's change is written with its
 * masked diff before the answer leaves (so a client that sees the answer finds the entry).
 */
export function registerAuditHooks(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', async (req) => {
    const target = AUDIT_TARGETS[`${req.method} ${req.routeOptions.url?.replace(/^\/api/, '')}`];
    if (!target) return;
    const pending: Pending = { target, id: target.id?.(req) };
    pending.before = await load(ctx, pending);
    req.audit = pending;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const p = req.audit;
    if (!p || !req.user || req.user.role < ROLE.admin || !succeeded(reply, payload)) return payload;
    try {
      await record(ctx, req, p);
    } catch (error) {
      req.log.error({ err: error }, 'audit log entry not written');
    }
    return payload;
  });
}
