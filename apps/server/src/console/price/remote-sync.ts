import { createHash } from 'node:crypto';
import { PriceSyncBody, type PriceSyncApplyBody, type PriceSyncDiff, type PriceValues } from '@one-hub/contract';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { outboundFetch } from '../../egress/outbound.js';
import { listPrices } from '../../db/repos/prices.js';
import { insertAuditLog } from '../../db/repos/audit-logs.js';
import { planPriceSync } from './sync.js';
import { applyPricePlan, toPriceJson } from './service.js';

const MAX_BYTES = 8 * 1024 * 1024;
type Incoming = z.infer<typeof PriceSyncBody>[number];
type Mode = PriceSyncDiff['mode'];

/** Reads a published price list: a JSON array of price rows, or `{data: [...]}` (api.md §5 update_price_service). */
export async function fetchPriceList(url: string): Promise<Incoming[]> {
  let res: Response;
  try {
    res = (await outboundFetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(30_000) })) as unknown as Response;
  } catch (error) {
    throw apiError(502, 'price_list_unreachable', { reason: (error as Error).message });
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw apiError(502, 'price_list_http', { status: res.status });
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BYTES) throw apiError(502, 'price_list_too_large');
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    body = Array.isArray(parsed) ? parsed : (parsed as { data?: unknown })?.data;
  } catch {
    throw apiError(502, 'price_list_not_json');
  }
  const list = PriceSyncBody.safeParse(body);
  if (!list.success) throw apiError(502, 'price_list_rejected', { detail: `${list.error.issues[0]?.path.join('.')} ${list.error.issues[0]?.message}` });
  return list.data;
}

const values = (p: Omit<Incoming, 'locked'> | PriceValues): PriceValues => ({
  type: p.type,
  channel_type: p.channel_type,
  input: p.input,
  output: p.output,
  ...(p.extra_ratios && Object.keys(p.extra_ratios).length ? { extra_ratios: p.extra_ratios } : {}),
  ...(p.tiers?.length ? { tiers: p.tiers.map((t) => ({ above: t.above, input: t.input, output: t.output, ...(t.extra_ratios ? { extra_ratios: t.extra_ratios } : {}) })) } : {}),
  ...(p.service_ratios && Object.keys(p.service_ratios).length ? { service_ratios: p.service_ratios } : {}),
  model: p.model,
});
const same = (a: PriceValues, b: PriceValues) => JSON.stringify(a) === JSON.stringify(b);

type Entries = Omit<PriceSyncDiff, 'digest'>;
/** A diff as an apply request sends it back (the same entries, parsed). */
type Previewed = z.infer<typeof PriceSyncApplyBody>;
type Actor = { id: number; username: string; role: number; ip: string };

/** SHA-256 of a diff's entries in one canonical form: the preview's answer and the apply request must agree on it. */
function digestOf(d: Omit<Previewed, 'digest'>): string {
  const canonical = {
    url: d.url,
    mode: d.mode,
    fetched: d.fetched,
    added: d.added.map(values),
    changed: d.changed.map((c) => ({ model: c.model, before: values(c.before), after: values(c.after) })),
    removed: d.removed.map(values),
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** What syncing `incoming` in `mode` would change, against the stored prices now. */
async function diffFor(ctx: AppContext, url: string, mode: Mode, incoming: Incoming[]): Promise<PriceSyncDiff> {
  const stored = (await listPrices(ctx.db)).map(toPriceJson);
  const plan = planPriceSync(stored, incoming, mode);
  const before = new Map(stored.map((p) => [p.model, values(p)]));
  const inserted = new Set(plan.insert.map((p) => p.model));
  const diff: Entries = { url, mode, fetched: incoming.length, added: [], changed: [], removed: [] };
  for (const p of plan.insert) {
    const old = before.get(p.model);
    const now = values(p);
    if (!old) diff.added.push(now);
    else if (!same(old, now)) diff.changed.push({ model: p.model, before: old, after: now });
  }
  for (const model of plan.remove) if (!inserted.has(model)) diff.removed.push(before.get(model)!);
  return { ...diff, digest: digestOf(diff) };
}

/** The diff a sync from `url` would make, changing nothing. */
export async function previewPriceSync(ctx: AppContext, url: string, mode: Mode): Promise<PriceSyncDiff> {
  return diffFor(ctx, url, mode, await fetchPriceList(url));
}

/**
 * Applies exactly a previewed diff, fetching nothing: its entries must match its digest (400), and
 * every price it adds, changes or removes must still be as the preview saw it and unlocked (409,
 * checked in the transaction that writes). Writes one audit entry with the diff (the actor, or
 * `system` for the scheduled job). An empty diff writes nothing and no entry.
 */
export async function applyPriceSync(ctx: AppContext, diff: Previewed, actor?: Actor): Promise<Previewed> {
  if (digestOf(diff) !== diff.digest) throw apiError(400, 'price_sync_mismatch');
  if (!diff.added.length && !diff.changed.length && !diff.removed.length) return diff;
  const plan = {
    remove: [...diff.changed.map((c) => c.model), ...diff.removed.map((p) => p.model)],
    insert: [...diff.added, ...diff.changed.map((c) => c.after)].map((p) => ({ ...p, locked: false })),
  };
  const stalePreview = (models: string[]) => apiError(409, 'price_sync_stale', { models: models.slice(0, 5).join(', ') });
  await applyPricePlan(ctx, plan, async (trx) => {
    const now = new Map((await listPrices(trx)).map((r) => [r.model, toPriceJson(r)]));
    const stale = (model: string, expected?: Omit<Incoming, 'locked'>) => {
      const p = now.get(model);
      return expected ? !p || p.locked || !same(values(p), values(expected)) : p !== undefined;
    };
    const moved = [...diff.added.filter((p) => stale(p.model)), ...diff.changed.filter((c) => stale(c.model, c.before)), ...diff.removed.filter((p) => stale(p.model, p))];
    if (moved.length) throw stalePreview(moved.map((p) => p.model));
  }).catch((error: unknown) => {
    // The same preview applied twice at once: the later insert meets the earlier one's rows.
    throw isDuplicate(error) ? stalePreview(diff.added.map((p) => p.model)) : error;
  });
  await insertAuditLog(ctx.db, {
    created_at: nowSeconds(),
    actor_id: actor?.id ?? 0,
    actor_name: actor?.username ?? 'system',
    actor_role: actor?.role ?? 0,
    ip: actor?.ip ?? '',
    action: 'sync',
    target_kind: 'price',
    target_id: '',
    diff: JSON.stringify({ url: diff.url, mode: diff.mode, added: diff.added, changed: diff.changed, removed: diff.removed }),
  });
  return diff;
}

/** A unique-key violation on PostgreSQL, MySQL/MariaDB or SQLite. */
function isDuplicate(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown };
  return e?.code === '23505' || e?.errno === 1062 || String(e?.code ?? '').startsWith('SQLITE_CONSTRAINT');
}

/** Fetch, diff and apply in one go (the scheduled job): the same two steps the console takes. */
export async function syncFromList(ctx: AppContext, url: string, mode: Mode): Promise<Previewed> {
  return applyPriceSync(ctx, await previewPriceSync(ctx, url, mode));
}
