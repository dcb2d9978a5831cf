import type { Db } from '../db/index.js';
import type { Source } from './source.js';
import type { TableCount } from './copy.js';
import { sameValue } from './tables.js';

export interface RatioPrice {
  model: string;
  type: 'tokens' | 'times';
  channel_type: number;
  input: number;
  output: number;
}

/** Quota per US dollar in one-api and new-api (QuotaPerUnit); a price ratio of 1 is $0.002, so $1 is 500. */
const RATIO_PER_DOLLAR = 500;

export function parseJsonMap(text: string | undefined): Record<string, unknown> {
  try {
    const v = text ? (JSON.parse(text) as unknown) : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const usable = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * one-api and new-api keep prices in options: ModelRatio (quota per token, the unit our `tokens`
 * prices use), CompletionRatio (output as a multiple of input, 1 when absent) and, in new-api,
 * ModelPrice (US dollars per request, which wins over a ratio: our `times` price in ratio units).
 */
export function pricesFromRatios(modelRatio: string | undefined, completionRatio: string | undefined, modelPrice?: string): RatioPrice[] {
  const ratios = parseJsonMap(modelRatio);
  const completion = parseJsonMap(completionRatio);
  const perCall = parseJsonMap(modelPrice);
  const prices = new Map<string, RatioPrice>();
  for (const [model, r] of Object.entries(ratios)) {
    if (!model.trim() || !usable(r)) continue;
    const c = usable(completion[model]) ? (completion[model] as number) : 1;
    prices.set(model, { model, type: 'tokens', channel_type: 0, input: r, output: r * c });
  }
  for (const [model, dollars] of Object.entries(perCall)) {
    if (!model.trim() || !usable(dollars)) continue;
    prices.set(model, { model, type: 'times', channel_type: 0, input: dollars * RATIO_PER_DOLLAR, output: 0 });
  }
  return [...prices.values()];
}

/** All options of the source, by key. */
export async function readOptions(src: Source): Promise<Map<string, string>> {
  const options = new Map<string, string>();
  if (!src.tables().includes('options')) return options;
  let after: string | undefined;
  for (;;) {
    const rows = await src.page('options', 'key', after, 1000);
    if (!rows.length) break;
    for (const r of rows) options.set(String(r.key), String(r.value ?? ''));
    after = String(rows[rows.length - 1].key);
  }
  return options;
}

/** Ratio-based prices of a one-api or new-api source, written like any other table (matched by model). */
export async function copyRatioPrices(src: Source, options: Map<string, string>, target: Db, dryRun: boolean): Promise<TableCount | undefined> {
  if (src.tables().includes('prices') || !src.tables().includes('options')) return undefined;
  const prices = pricesFromRatios(options.get('ModelRatio'), options.get('CompletionRatio'), options.get('ModelPrice'));
  const count: TableCount = { table: 'prices (from ModelRatio/ModelPrice)', read: prices.length, inserted: 0, updated: 0, unchanged: 0, skipped: 0, unmapped: [] };
  for (const p of prices) {
    const old = await target.selectFrom('prices').selectAll().where('model', '=', p.model).executeTakeFirst();
    if (!old) {
      count.inserted++;
      if (!dryRun) await target.insertInto('prices').values(p).execute();
    } else if (!sameValue(old.input, p.input) || !sameValue(old.output, p.output) || old.type !== p.type) {
      count.updated++;
      if (!dryRun) await target.updateTable('prices').set({ type: p.type, input: p.input, output: p.output }).where('model', '=', p.model).execute();
    } else count.unchanged++;
  }
  return count;
}

/**
 * one-api and new-api have no group table: a group is a name with a ratio in the option
 * GroupRatio. Each becomes a user group (matched by symbol; an existing group keeps its settings
 * and takes the ratio).
 */
export async function copyRatioGroups(src: Source, options: Map<string, string>, target: Db, dryRun: boolean): Promise<TableCount | undefined> {
  if (src.tables().includes('user_groups') || !options.has('GroupRatio')) return undefined;
  const groups = Object.entries(parseJsonMap(options.get('GroupRatio'))).filter(([symbol, r]) => symbol.trim() && symbol.length <= 32 && usable(r)) as Array<[string, number]>;
  const count: TableCount = { table: 'user_groups (from GroupRatio)', read: groups.length, inserted: 0, updated: 0, unchanged: 0, skipped: 0, unmapped: [] };
  for (const [symbol, ratio] of groups) {
    const old = await target.selectFrom('user_groups').select(['ratio']).where('symbol', '=', symbol).executeTakeFirst();
    if (!old) {
      count.inserted++;
      if (!dryRun) await target.insertInto('user_groups').values({ symbol, name: symbol, ratio, public: symbol === 'default' ? 1 : 0, enable: 1 }).execute();
    } else if (!sameValue(old.ratio, ratio)) {
      count.updated++;
      if (!dryRun) await target.updateTable('user_groups').set({ ratio }).where('symbol', '=', symbol).execute();
    } else count.unchanged++;
  }
  return count;
}
