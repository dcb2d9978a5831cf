import { PriceSyncBody, type PriceSyncDiff, type PriceValues } from '@one-hub/contract';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { guardedFetch, isEgressRefused } from '../../egress/guard.js';
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
    res = (await guardedFetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(30_000) })) as unknown as Response;
  } catch (error) {
    throw new HubError(502, isEgressRefused(error) ? `price list not fetched: ${(error as Error).message}` : `price list not fetched: ${(error as Error).message}`);
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new HubError(502, `price service answered HTTP ${res.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_BYTES) throw new HubError(502, 'price list is larger than 8 MiB');
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    body = Array.isArray(parsed) ? parsed : (parsed as { data?: unknown })?.data;
  } catch {
    throw new HubError(502, 'price list is not JSON');
  }
  const list = PriceSyncBody.safeParse(body);
  if (!list.success) throw new HubError(502, `price list rejected: ${list.error.issues[0]?.path.join('.')} ${list.error.issues[0]?.message}`);
  return list.data;
}

const values = (p: Incoming | PriceValues): PriceValues => ({
  type: p.type,
  channel_type: p.channel_type,
  input: p.input,
  output: p.output,
  ...(p.extra_ratios && Object.keys(p.extra_ratios).length ? { extra_ratios: p.extra_ratios } : {}),
  ...(p.tiers?.length ? { tiers: p.tiers.map((t) => ({ above: t.above, input: t.input, output: t.output, ...(t.extra_ratios ? { extra_ratios: t.extra_ratios } : {}) })) } : {}),
  model: p.model,
});
const same = (a: PriceValues, b: PriceValues) => JSON.stringify(a) === JSON.stringify(b);

/** What syncing `incoming` in `mode` would change, and the plan that does it. */
async function planFor(ctx: AppContext, url: string, mode: Mode, incoming: Incoming[]) {
  const stored = (await listPrices(ctx.db)).map(toPriceJson);
  const plan = planPriceSync(stored, incoming, mode);
  const before = new Map(stored.map((p) => [p.model, values(p)]));
  const inserted = new Set(plan.insert.map((p) => p.model));
  const diff: PriceSyncDiff = { url, mode, fetched: incoming.length, added: [], changed: [], removed: [] };
  for (const p of plan.insert) {
    const old = before.get(p.model);
    const now = values(p);
    if (!old) diff.added.push(now);
    else if (!same(old, now)) diff.changed.push({ model: p.model, before: old, after: now });
  }
  for (const model of plan.remove) if (!inserted.has(model)) diff.removed.push(before.get(model)!);
  return { plan, diff };
}

/** The diff a sync from `url` would make, changing nothing. */
export async function previewPriceSync(ctx: AppContext, url: string, mode: Mode): Promise<PriceSyncDiff> {
  return (await planFor(ctx, url, mode, await fetchPriceList(url))).diff;
}

/**
 * Fetches the list, applies it and writes one audit entry with the diff (the actor, or `system`
 * for the scheduled job). Nothing changed: nothing written, no entry.
 */
export async function applyPriceSync(ctx: AppContext, url: string, mode: Mode, actor?: { id: number; username: string; role: number; ip: string }): Promise<PriceSyncDiff> {
  const { plan, diff } = await planFor(ctx, url, mode, await fetchPriceList(url));
  if (!diff.added.length && !diff.changed.length && !diff.removed.length) return diff;
  await applyPricePlan(ctx, plan);
  await insertAuditLog(ctx.db, {
    created_at: nowSeconds(),
    actor_id: actor?.id ?? 0,
    actor_name: actor?.username ?? 'system',
    actor_role: actor?.role ?? 0,
    ip: actor?.ip ?? '',
    action: 'sync',
    target_kind: 'price',
    target_id: '',
    diff: JSON.stringify({ url, mode, added: diff.added, changed: diff.changed, removed: diff.removed }),
  });
  return diff;
}
