import type { Db, DialectName } from '../db/index.js';
import { openSource } from './source.js';
import { TABLES } from './tables.js';
import { copyTable, type CopyOptions, type TableCount } from './copy.js';
import { copyRatioGroups, copyRatioPrices, readOptions } from './ratio-prices.js';
import { copyTopUps } from './top-ups.js';

/**
 * Moves a One Hub, one-api or new-api database (SQLite, PostgreSQL or MySQL) into ours: every
 * table of TABLES that the source has, matched by key so a second run changes nothing; prices and
 * groups that one-api and new-api keep as ratios in options become rows, and new-api's top-ups
 * become orders (history only). Passwords (bcrypt) and
 * token keys are copied as they are, so sign-ins and API keys keep working.
 */
export async function importDatabase(from: string, target: Db, dialect: DialectName, opts: CopyOptions): Promise<TableCount[]> {
  const src = await openSource(from);
  try {
    const columns = new Map((await target.introspection.getTables()).map((t) => [t.name, t.columns.map((c) => c.name)]));
    const counts: TableCount[] = [];
    for (const plan of TABLES) counts.push(await copyTable(src, target, dialect, plan, columns.get(plan.table) ?? [], opts));
    const options = await readOptions(src);
    for (const derived of [copyRatioPrices, copyRatioGroups]) {
      const count = await derived(src, options, target, opts.dryRun);
      if (count) counts.push(count);
    }
    const topUps = await copyTopUps(src, options, target, opts.dryRun, opts.batch);
    if (topUps) counts.push(topUps);
    // Tables of the source we have no place for (abilities, which we derive from channels; tasks; …), for the report.
    const known = new Set([...TABLES.map((t) => t.table), 'top_ups']);
    for (const table of src.tables().filter((t) => !known.has(t)).sort()) {
      counts.push({ table, read: 0, inserted: 0, updated: 0, unchanged: 0, skipped: 0, unmapped: [], notCopied: true });
    }
    return counts;
  } finally {
    await src.close();
  }
}
