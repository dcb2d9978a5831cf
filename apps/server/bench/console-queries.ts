// `npm run bench:console -- --dsn <postgres://… | mysql://… | file.db>`: the console's log lists and
// statistics against a database seeded by seed-big, each run several times; prints the median of each.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/env.js';
import { createServer } from '../src/bootstrap.js';
import { SEED_MODELS, seedTokenName, seedUsername } from './seed-big.js';

const { values } = parseArgs({ options: { dsn: { type: 'string', default: './data/bench-big.db' }, runs: { type: 'string', default: '7' } } });
const dsn = values.dsn!;
const server = /^(postgres(ql)?|mysql):\/\//i.test(dsn);
const running = await createServer(
  loadConfig({
    ...(server ? { SQL_DSN: dsn } : { SQLITE_PATH: dsn }),
    LOG_LEVEL: 'warn',
    NODE_TYPE: 'slave',
    GLOBAL_API_RATE_LIMIT: '0',
    CRITICAL_RATE_LIMIT: '0',
    SESSION_SECRET: 'bench-console-queries-secret-0123456789',
  }),
);
const { app, ctx } = running;
// The first seeded user answers for root (a seeded database has no other).
await ctx.db.updateTable('users').set({ role: 100 }).where('username', '=', seedUsername(0)).execute();
const login = await app.inject({ method: 'POST', url: '/api/user/login', payload: { username: seedUsername(0), password: 'bench-user-password' } });
const cookie = String(login.headers['set-cookie']).split(';')[0];
// The heaviest user (the seed gives the low numbers most traffic).
const heaviest = await ctx.db.selectFrom('users').select('id').where('username', '=', seedUsername(0)).executeTakeFirstOrThrow();

const now = Math.floor(Date.now() / 1000);
const day = 86_400;
const list = (q: string) => `/api/log/?page=1&size=10&order=-created_at&start_timestamp=0&end_timestamp=${now + 3600}${q}`;
const CASES: Array<[string, string]> = [
  ['analytics 90 days (by channel)', `/api/analytics/period?start_timestamp=${now - 90 * day}&end_timestamp=${now}&group_type=channel`],
  ['analytics 90 days (by channel, top 12)', `/api/analytics/period?start_timestamp=${now - 90 * day}&end_timestamp=${now}&group_type=channel&top=12`],
  ['analytics 90 days (by model)', `/api/analytics/period?start_timestamp=${now - 90 * day}&end_timestamp=${now}&group_type=model`],
  ['analytics 90 days, heaviest user', `/api/analytics/period?start_timestamp=${now - 90 * day}&end_timestamp=${now}&group_type=channel&user_id=${heaviest.id}`],
  ['analytics 90 days, heaviest user, top 12', `/api/analytics/period?start_timestamp=${now - 90 * day}&end_timestamp=${now}&group_type=channel&user_id=${heaviest.id}&top=12`],
  ['analytics 90 days (by model, top 12)', `/api/analytics/period?start_timestamp=${now - 90 * day}&end_timestamp=${now}&group_type=model&top=12`],
  ['analytics 7 days (by model)', `/api/analytics/period?start_timestamp=${now - 7 * day}&end_timestamp=${now}&group_type=model`],
  ['analytics totals', '/api/analytics/statistics'],
  ['user dashboard', '/api/user/dashboard'],
  ['log list, default view', list('&log_type=0')],
  ['log list, consumption tab', list('&log_type=2')],
  ['log list by token name', list(`&token_name=${seedTokenName(7)}`)],
  ['log list by model', list(`&model_name=${SEED_MODELS[3]}`)],
  ['log list by user', list(`&username=${seedUsername(42)}`)],
  ['log list by channel', list('&channel_id=5')],
  ['log list sorted by quota', list('&log_type=0').replace('order=-created_at', 'order=-quota')],
  ['log list, page 500', list('&log_type=0').replace('page=1', 'page=500')],
  ['own log list (heaviest user)', `/api/log/self?page=1&size=10&order=-created_at&start_timestamp=0&end_timestamp=${now + 3600}`],
  ['log quota sum by model', `/api/log/stat?model_name=${SEED_MODELS[3]}&start_timestamp=${now - 7 * day}&end_timestamp=${now}`],
];

const runs = Number(values.runs);
console.log(`${ctx.config.SQL_DSN ? ctx.config.SQL_DSN.split(':')[0] : 'sqlite'}: median of ${runs} runs after one warm-up`);
for (const [name, url] of CASES) {
  const times: number[] = [];
  // CPU time of this process (its read-worker threads included; not a database server's): on a
  // shared machine it varies far less with the load than the wall time does.
  const cpu: number[] = [];
  let status = 0;
  let rssPeak = 0;
  let bytes = 0;
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    if (i) times.push(performance.now() - started);
    if (i) cpu.push((({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpuStarted)));
    status = res.json().success ? res.statusCode : 500;
    bytes = res.rawPayload.length;
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const cpuMedian = cpu[Math.floor(cpu.length / 2)];
  console.log(
    `${name.padEnd(42)} ${median.toFixed(1).padStart(8)} ms  (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})  cpu ${cpuMedian.toFixed(1)} ms  ${status}  ${(bytes / 1e3).toFixed(0)} kB  rss ${(rssPeak / 1e6).toFixed(0)} MB`,
  );
}
await running.close();
