// `npm run seed:big -- --dsn <postgres://… | mysql://… | file.db> [--logs 2000000] [--users 5000] [--tokens 50000] [--channels 200] [--days 90]`
import { cliValues, intFlag, progressLine, type CliSpec } from '../src/common/cli-args.js';
import { migrate, openDb } from '../src/db/index.js';
import { BIG_SIZE, seedBig } from './seed-big.js';

const SPEC: CliSpec = {
  command: 'npm run seed:big --',
  summary: 'Fills a database with a large, realistic data set (users, tokens, channels, logs and their roll-up) for the console and big-data benchmarks. Migrates it first.',
  flags: [
    { name: 'dsn', value: '<target>', help: 'postgres://…, mysql://… or a SQLite file', defaultText: './data/bench-big.db' },
    { name: 'users', value: 'N', help: 'users', defaultText: String(BIG_SIZE.users) },
    { name: 'tokens', value: 'N', help: 'tokens, spread over the users', defaultText: String(BIG_SIZE.tokens) },
    { name: 'channels', value: 'N', help: 'channels', defaultText: String(BIG_SIZE.channels) },
    { name: 'logs', value: 'N', help: 'log rows (2_000_000 is fine)', defaultText: String(BIG_SIZE.logs) },
    { name: 'days', value: 'N', help: 'days the log rows span, ending now', defaultText: String(BIG_SIZE.days) },
  ],
  notes: ['Progress goes to stderr (one updating line on a terminal), the summary to stdout.'],
};

const { dsn, size } = cliValues(SPEC, process.argv.slice(2), (v) => ({
  dsn: typeof v.dsn === 'string' ? v.dsn : './data/bench-big.db',
  size: {
    users: intFlag(v, 'users', BIG_SIZE.users, 1),
    tokens: intFlag(v, 'tokens', BIG_SIZE.tokens, 0),
    channels: intFlag(v, 'channels', BIG_SIZE.channels, 0),
    logs: intFlag(v, 'logs', BIG_SIZE.logs, 0),
    days: intFlag(v, 'days', BIG_SIZE.days, 1),
  },
}));

const progress = progressLine();
const server = /^(postgres(ql)?|mysql):\/\//i.test(dsn);
const handle = await openDb({ dsn: server ? dsn : undefined, sqlitePath: dsn });
try {
  const started = Date.now();
  progress.update('migrating', true);
  await migrate(handle.db);
  progress.update(`migrated in ${((Date.now() - started) / 1000).toFixed(1)} s`, true);
  const result = await seedBig(handle.db, size, (step) => progress.update(`seeded ${step}`, true));
  progress.done();
  console.log(
    `seeded ${handle.dialect}: ${size.users} users, ${size.tokens} tokens, ${size.channels} channels, ${size.logs} log rows over ${size.days} days ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s (users ${result.userIds[0]}…, log time ${result.from}–${result.to})`,
  );
} finally {
  await handle.close();
}
