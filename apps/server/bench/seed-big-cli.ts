// `npm run seed:big -- --dsn <postgres://… | mysql://… | file.db> [--logs 2000000] [--users 5000] [--tokens 50000] [--channels 200] [--days 90]`
import { parseArgs } from 'node:util';
import { migrate, openDb } from '../src/db/index.js';
import { BIG_SIZE, seedBig } from './seed-big.js';

const { values } = parseArgs({
  options: {
    dsn: { type: 'string', default: './data/bench-big.db' },
    users: { type: 'string' },
    tokens: { type: 'string' },
    channels: { type: 'string' },
    logs: { type: 'string' },
    days: { type: 'string' },
  },
});
const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v.replace(/_/g, '')));
const size = {
  users: num(values.users, BIG_SIZE.users),
  tokens: num(values.tokens, BIG_SIZE.tokens),
  channels: num(values.channels, BIG_SIZE.channels),
  logs: num(values.logs, BIG_SIZE.logs),
  days: num(values.days, BIG_SIZE.days),
};
const dsn = values.dsn!;
const server = /^(postgres(ql)?|mysql):\/\//i.test(dsn);
const handle = await openDb({ dsn: server ? dsn : undefined, sqlitePath: dsn });
const started = Date.now();
await migrate(handle.db);
console.log(`migrated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const result = await seedBig(handle.db, size, (step) => console.log(`  ${step}`));
console.log(
  `seeded ${handle.dialect}: ${size.users} users, ${size.tokens} tokens, ${size.channels} channels, ${size.logs} log rows over ${size.days} days ` +
    `in ${((Date.now() - started) / 1000).toFixed(1)} s (users ${result.userIds[0]}…, log time ${result.from}–${result.to})`,
);
await handle.close();
