import type { Db } from '../db/index.js';
import type { Source } from './source.js';
import type { TableCount } from './copy.js';
import { sameValue } from './tables.js';

export interface RatioPrice {
  model: string;
  type: 'tokens';
  channel_type: number;
  input: number;
  output: number;
}

/**
 * one-api keeps prices as ratios in options: ModelRatio (quota per token, the unit our `tokens`
 * prices use) and CompletionRatio (output as a multiple of input, 1 when absent).
 */
export function pricesFromRatios(modelRatio: string | undefined, completionRatio: string | undefined): RatioPrice[] {
  const parse = (text: string | undefined): Record<string, unknown> => {
    try {
      const v = text ? (JSON.parse(text) as unknown) : {};
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  const ratios = parse(modelRatio);
  const completion = parse(completionRatio);
  return Object.entries(ratios)
    .filter(([model, r]) => model.trim() && typeof r === 'number' && Number.isFinite(r) && r >= 0)
    .map(([model, r]) => {
      const c = typeof completion[model] === 'number' && (completion[model] as number) >= 0 ? (completion[model] as number) : 1;
      return { model, type: 'tokens', channel_type: 0, input: r as number, output: (r as number) * c };
    });
}

/** Ratio-based prices of a one-api source, written like any other table (matched by model). */
export async function copyRatioPrices(src: Source, target: Db, dryRun: boolean): Promise<TableCount | undefined> {
  if (src.tables().includes('prices') || !src.tables().includes('options')) return undefined;
  const options = new Map<string, string>();
  let after: string | undefined;
  for (;;) {
    const rows = src.page('options', 'key', after, 1000);
    if (!rows.length) break;
    for (const r of rows) options.set(String(r.key), String(r.value ?? ''));
    after = String(rows[rows.length - 1].key);
  }
  const prices = pricesFromRatios(options.get('ModelRatio'), options.get('CompletionRatio'));
  const count: TableCount = { table: 'prices (from ModelRatio)', read: prices.length, inserted: 0, updated: 0, unchanged: 0, skipped: 0, unmapped: [] };
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
