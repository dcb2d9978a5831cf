import { loadSettings } from '../config/env.js';
import { migrate, openDb } from '../db/index.js';
import { cliValues, CliUsageError, intFlag, positiveFlag, progressLine, type CliSpec } from '../common/cli-args.js';
import { importDatabase } from './run.js';
import type { TableCount } from './copy.js';

const SPEC: CliSpec = {
  command: 'npm run import --',
  summary: "Copies a One Hub, one-api or new-api database into this install's own database (SQL_DSN / SQLITE_PATH, or the config file's).",
  flags: [
    { name: 'from', value: '<source>', help: "the source: a SQLite file, postgres://…, mysql://… or the original's user:pass@tcp(host:3306)/db" },
    { name: 'dry-run', help: 'read and compare only: report what would change, write nothing' },
    { name: 'log-days', value: 'N', help: 'copy only the last N days of logs' },
    { name: 'batch', value: 'N', help: 'rows per insert, 1 to 5000', defaultText: '1000' },
    { name: 'config', value: '<file>', help: "this install's config file (as for the server; else CONFIG_FILE or ./config.yaml)" },
  ],
  notes: ["Progress goes to stderr (one updating line on a terminal), the report to stdout.", "Example: npm run import -- --from /path/to/one-api.db --dry-run"],
};

const progress = progressLine();

function bar(name: string, done: number, total: number): void {
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : width;
  const text = `${name.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
  // Each table's last state stays on its own line.
  if (done >= total) progress.done(text);
  else progress.update(text);
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
  const opts = cliValues(SPEC, process.argv.slice(2), (v) => {
    if (typeof v.from !== 'string') throw new CliUsageError('--from is required');
    return { from: v.from, dryRun: v['dry-run'] === true, logDays: positiveFlag(v, 'log-days'), batch: intFlag(v, 'batch', 1000, 1, 5000), config: v.config as string | undefined };
  });
  // The target is this install's own database (SQL_DSN / SQLITE_PATH, config file included).
  const config = loadSettings({ argv: opts.config ? ['--config', opts.config] : [] });
  const handle = await openDb({ dsn: config.SQL_DSN, sqlitePath: config.SQLITE_PATH });
  try {
    await migrate(handle.db);
    const started = Date.now();
    const counts = await importDatabase(opts.from, handle.db, handle.dialect, { dryRun: opts.dryRun, batch: opts.batch, logDays: opts.logDays, progress: bar });
    progress.done();
    report(counts, opts.dryRun, (Date.now() - started) / 1000);
    if (opts.dryRun) console.log('dry run: nothing was written');
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  progress.done();
  console.error((error as Error).message);
  process.exit(1);
});
