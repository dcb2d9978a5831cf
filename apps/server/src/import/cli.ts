import { loadSettings } from '../config/env.js';
import { flagValue } from '../config/file.js';
import { migrate, openDb } from '../db/index.js';
import { importDatabase } from './run.js';
import type { TableCount } from './copy.js';

const USAGE = 'usage: npm run import -- --from <sqlite file | postgres://… | mysql://… | user:pass@tcp(host:3306)/db> [--dry-run] [--log-days N] [--batch N]';

function bar(table: string, done: number, total: number): void {
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : width;
  process.stderr.write(`\r${table.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  if (done >= total) process.stderr.write('\n');
}

function report(counts: TableCount[], dryRun: boolean, seconds: number): void {
  const verb = dryRun ? 'would insert' : 'inserted';
  for (const c of counts) {
    if (c.missing) {
      console.log(`${c.table.padEnd(12)} not in the source`);
      continue;
    }
    if (c.notCopied) {
      console.log(`${c.table.padEnd(12)} not copied (no place for it here)`);
      continue;
    }
    const extra = c.unmapped.length ? `; columns not mapped: ${c.unmapped.join(', ')}` : '';
    console.log(`${c.table.padEnd(12)} read ${c.read}, ${verb} ${c.inserted}, ${dryRun ? 'would update' : 'updated'} ${c.updated}, unchanged ${c.unchanged}, deleted rows skipped ${c.skipped}${extra}`);
    for (const reason of c.rejected ?? []) console.log(`${''.padEnd(12)} not copied: ${reason}`);
  }
  const rows = counts.reduce((n, c) => n + c.read, 0);
  console.log(`${rows} rows in ${seconds.toFixed(1)} s (${Math.round(rows / Math.max(seconds, 0.001))} rows/s)`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const from = flagValue(argv, 'from');
  if (!from) throw new Error(USAGE);
  const dryRun = argv.includes('--dry-run');
  const logDays = flagValue(argv, 'log-days');
  const batch = Number(flagValue(argv, 'batch') ?? 1000);
  if (!Number.isInteger(batch) || batch < 1 || batch > 5000) throw new Error('--batch must be an integer from 1 to 5000');
  if (logDays !== undefined && !(Number(logDays) > 0)) throw new Error('--log-days must be a positive number');
  // The target is this install's own database (SQL_DSN / SQLITE_PATH, config file included).
  const config = loadSettings({ argv: argv.filter((a) => a !== '--dry-run') });
  const handle = await openDb({ dsn: config.SQL_DSN, sqlitePath: config.SQLITE_PATH });
  try {
    await migrate(handle.db);
    const started = Date.now();
    const counts = await importDatabase(from, handle.db, handle.dialect, { dryRun, batch, logDays: logDays ? Number(logDays) : undefined, progress: bar });
    report(counts, dryRun, (Date.now() - started) / 1000);
    if (dryRun) console.log('dry run: nothing was written');
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
