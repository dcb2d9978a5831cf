import type { Db, DialectName } from '../db/index.js';
import { openSource } from './source.js';
import { TABLES } from './tables.js';
import { copyTable, type CopyOptions, type TableCount } from './copy.js';
import { copyRatioPrices } from './ratio-prices.js';

/**
 * Moves a One Hub / one-api database into ours: every table of TABLES that the source has,
 * matched by key so a second run changes nothing. Passwords (bcrypt) and token keys are copied
 * as they are, so sign-ins and API keys keep working.
 */
export async function importDatabase(from: string, target: Db, dialect: DialectName, opts: CopyOptions): Promise<TableCount[]> {
  const src = openSource(from);
  try {
    const columns = new Map((await target.introspection.getTables()).map((t) => [t.name, t.columns.map((c) => c.name)]));
    const counts: TableCount[] = [];
    for (const plan of TABLES) counts.push(await copyTable(src, target, dialect, plan, columns.get(plan.table) ?? [], opts));
    const ratios = await copyRatioPrices(src, target, opts.dryRun);
    if (ratios) counts.push(ratios);
    return counts;
  } finally {
    src.close();
  }
}
