// `npm run bench -- [flags]`: reads the flags (each one an environment variable of bench/run.ts,
// which still works on its own: a flag given wins), then runs the bench.
import { cliValues, CliUsageError, positiveFlag, type CliSpec, type CliValues } from '../src/common/cli-args.js';
import { parseStorage } from './storage.js';

type Kind = 'seconds' | 'count' | 'list' | 'modes' | 'storage' | 'text' | 'switch';
interface BenchFlag {
  name: string;
  env: string;
  kind: Kind;
  value?: string;
  help: string;
  defaultText?: string;
}

const FLAGS: BenchFlag[] = [
  { name: 'storage', env: 'BENCH_STORAGE', kind: 'storage', value: '<list>', help: 'configurations to load, e.g. sqlite,postgres+redis,mysql+redis*2,postgres+redis/2,floor,nginx', defaultText: 'sqlite' },
  { name: 'seconds', env: 'BENCH_SECONDS', kind: 'seconds', value: 'S', help: 'measured seconds per cell (big-data mode: per phase)', defaultText: '4; big-data 10' },
  { name: 'workers', env: 'BENCH_WORKERS', kind: 'list', value: '<list>', help: 'run each gateway configuration with that many worker processes, e.g. 1,2,4 (a count the gateway refuses is skipped with its reason)' },
  { name: 'warmup', env: 'BENCH_WARMUP_SECONDS', kind: 'seconds', value: 'S', help: 'unmeasured seconds each side serves first', defaultText: '2' },
  { name: 'concurrency', env: 'BENCH_CONCURRENCY', kind: 'list', value: '<list>', help: 'concurrency list for SQLite', defaultText: '1,50,200' },
  { name: 'server-concurrency', env: 'BENCH_SERVER_CONCURRENCY', kind: 'list', value: '<list>', help: 'concurrency list for postgres/mysql', defaultText: '50' },
  { name: 'modes', env: 'BENCH_MODES', kind: 'modes', value: '<list>', help: 'json, stream or both', defaultText: 'json,stream' },
  { name: 'users', env: 'BENCH_USERS', kind: 'list', value: '<list>', help: 'also spread each load over that many seeded users, e.g. 1,1000,5000' },
  { name: 'token-limits', env: 'BENCH_TOKEN_LIMITS', kind: 'switch', help: 'give the bench token every request limit, far above the load' },
  { name: 'big-data', env: 'BENCH_BIGDATA', kind: 'switch', help: "the big-data mode (relay p99 beside the console's heavy work on a seeded SQLite file)" },
  { name: 'cleanup', env: 'BENCH_CLEANUP', kind: 'switch', help: 'the log clean-up mode: 1.2 M of 2 M log rows deleted through the console under relay load, with balance edits (bench/cleanup.ts)' },
  { name: 'cleanup-servers', env: 'BENCH_CLEANUP_SERVERS', kind: 'text', value: '<list>', help: 'clean-up mode: also time balance edits under load on postgres and/or mysql' },
  { name: 'log-rows', env: 'BENCH_LOG_ROWS', kind: 'count', value: 'N', help: 'big-data and clean-up modes: log rows seeded', defaultText: '2000000' },
  { name: 'big-data-concurrency', env: 'BENCH_BIGDATA_CONCURRENCY', kind: 'count', value: 'N', help: 'big-data and clean-up modes: relay concurrency', defaultText: '20' },
  { name: 'profile', env: 'BENCH_PROFILE', kind: 'text', value: '<dir>', help: 'write a V8 CPU profile of each gateway node there' },
  { name: 'prebuilt', env: 'BENCH_PREBUILT', kind: 'switch', help: "bench the bundle in apps/server/dist as it is, without building this tree first (to compare two commits' bundles)" },
  { name: 'gateway-log', env: 'BENCH_GATEWAY_LOG', kind: 'text', value: '<file>', help: "append the gateway processes' output to this file" },
];

const SPEC: CliSpec = {
  command: 'npm run bench --',
  summary: 'Gateway overhead against a fake upstream on this machine, loopback only: direct and gateway figures side by side, per storage configuration, mode and concurrency.',
  flags: FLAGS.map((f) => ({ name: f.name, value: f.value, help: `${f.help} [${f.env}]`, defaultText: f.defaultText })),
  notes: [
    'Each flag sets the environment variable in brackets, which works as before (a flag given wins);',
    'BENCH_POSTGRES_DSN, BENCH_MYSQL_DSN, BENCH_REDIS_URL and BENCH_NODE_FLAGS are read from the environment only.',
    'Progress goes to stderr (one updating line on a terminal), the figures to stdout.',
  ],
};

/** The environment the flags ask for, checked the way bench/run.ts will read it. */
function envOf(values: CliValues): Record<string, string> {
  const env: Record<string, string> = {};
  for (const flag of FLAGS) {
    const raw = values[flag.name];
    if (raw === undefined) continue;
    if (flag.kind === 'switch') env[flag.env] = '1';
    else {
      const text = String(raw);
      if (flag.kind === 'seconds') positiveFlag(values, flag.name);
      if (flag.kind === 'count' && !/^[1-9]\d*$/.test(text)) throw new CliUsageError(`--${flag.name} must be a whole number from 1 up, not ${JSON.stringify(text)}`);
      if (flag.kind === 'list' && !/^[1-9]\d*(,[1-9]\d*)*$/.test(text)) throw new CliUsageError(`--${flag.name} must be a comma-separated list of whole numbers from 1 up, not ${JSON.stringify(text)}`);
      if (flag.kind === 'modes' && !/^(json|stream)(,(json|stream))?$/.test(text)) throw new CliUsageError(`--${flag.name} must be json, stream or json,stream, not ${JSON.stringify(text)}`);
      if (flag.kind === 'storage') {
        try {
          if (parseStorage(text).length === 0) throw new Error('no configuration named');
        } catch (error) {
          throw new CliUsageError(`--${flag.name}: ${(error as Error).message.replace(/^BENCH_STORAGE: /, '')}`);
        }
      }
      env[flag.env] = text;
    }
  }
  return env;
}

Object.assign(process.env, cliValues(SPEC, process.argv.slice(2), envOf));
// run.ts reads its settings as it loads.
await import('./run.js');
