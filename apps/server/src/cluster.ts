// WORKERS > 1: one node served by several processes on one port, each an identical gateway node
// (the first keeps NODE_TYPE, the others are slaves), sharing balances, limits and caches through
// the database server and Redis as separate machines do. See docs/decisions.md "Worker processes".
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from './config/env.js';
import { ConfigError } from './config/file.js';
import { resolveSessionSecret } from './config/secret.js';
import { parseDsn } from './db/dsn.js';

/** A worker that exits unasked is started again after this long (so a crash loop does not spin). */
const RESTART_DELAY_MS = 1000;
/** SIGTERM gives the workers this long to finish their requests and last flushes. */
const STOP_GRACE_MS = 20_000;

/** How many processes serve this node: WORKERS, `auto` = one per core. */
export function workerCount(config: Config): number {
  return config.WORKERS === 'auto' ? availableParallelism() : Number(config.WORKERS);
}

/** Worker processes share state only through a database server and Redis; anything else is refused. */
export function checkWorkerSetup(config: Config, count: number): void {
  if (count <= 1) return;
  const problems: string[] = [];
  if (parseDsn(config.SQL_DSN, config.SQLITE_PATH).dialect === 'sqlite') problems.push('SQL_DSN (PostgreSQL or MySQL)');
  if (!config.REDIS_CONN_STRING) problems.push('REDIS_CONN_STRING');
  if (problems.length) throw new ConfigError(`WORKERS=${config.WORKERS} needs ${problems.join(' and ')}: worker processes share balances, limits and caches through them. Unset WORKERS to run one process.`);
}

/** Worker 0 keeps NODE_TYPE (the master's jobs, bot and pollers run once); the others are slaves. */
const workerEnv = (config: Config, index: number) => ({ NODE_TYPE: index > 0 ? 'slave' : config.NODE_TYPE });

const say = (message: string) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: message })}\n`);

/**
 * The primary process: starts worker 0 (it migrates and seeds), then the others once it listens;
 * starts again a worker that dies; on SIGTERM or SIGINT stops them all and exits when they have.
 */
export async function runPrimary(config: Config, count: number): Promise<void> {
  // Saved once here, so the workers do not each write a different one (sessions must be valid on all).
  resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const workers = new Map<Worker, number>();
  let up = false;
  let stopping = false;

  const fork = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const worker = cluster.fork(workerEnv(config, index));
      workers.set(worker, index);
      worker.once('listening', () => resolve());
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        if (stopping) return workers.size === 0 ? process.exit() : undefined;
        // A worker that cannot start (database unreachable, a bad setting) stops the node, as one process would.
        if (!up) return void (say(`worker ${index} exited (${signal ?? code}) before it served; stopping`), stop('SIGTERM', 1));
        say(`worker ${index} (pid ${worker.process.pid}) exited (${signal ?? code}); starting it again`);
        setTimeout(() => void fork(index), RESTART_DELAY_MS).unref();
        resolve();
      });
    });

  const stop = (signal: NodeJS.Signals, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping ${workers.size} workers`);
    setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
    if (workers.size === 0) process.exit(exitCode);
    process.exitCode = exitCode;
    for (const worker of workers.keys()) worker.process.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  answerWorkers();

  await fork(0);
  await Promise.all(Array.from({ length: count - 1 }, (_, i) => fork(i + 1)));
  up = true;
  if (!stopping) say(`One Hub node serving with ${count} worker processes on port ${config.PORT}`);
}

export const isPrimary = () => cluster.isPrimary;
export const isWorker = () => cluster.isWorker;

/** The node's metrics asked of the primary by a worker, and the answer (text or error). */
interface MetricsAsked {
  oneHub: 'metrics?';
  id: number;
}
interface MetricsAnswered {
  oneHub: 'metrics';
  id: number;
  text?: string;
  error?: string;
}
const ASK_TIMEOUT_MS = 10_000;
let asked = 0;
const waiting = new Map<number, (a: MetricsAnswered) => void>();

/** From a worker: every worker's series, aggregated by the primary (prom-client's cluster aggregator). */
export function nodeMetrics(): Promise<string> {
  if (waiting.size === 0) process.on('message', onAnswer);
  const id = ++asked;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle({ oneHub: 'metrics', id, error: 'the primary process did not answer' }), ASK_TIMEOUT_MS);
    const settle = (a: MetricsAnswered) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (waiting.size === 0) process.off('message', onAnswer);
      if (a.text === undefined) reject(new Error(a.error));
      else resolve(a.text);
    };
    waiting.set(id, settle);
    process.send!({ oneHub: 'metrics?', id } satisfies MetricsAsked);
  });
}

function onAnswer(message: unknown): void {
  const a = message as MetricsAnswered;
  if (a?.oneHub === 'metrics') waiting.get(a.id)?.(a);
}

/** The primary's side of nodeMetrics. */
function answerWorkers(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: MetricsAsked) => {
    if (message?.oneHub !== 'metrics?') return;
    const reply = (a: Pick<MetricsAnswered, 'text' | 'error'>) => worker.isConnected() && worker.send({ oneHub: 'metrics', id: message.id, ...a } satisfies MetricsAnswered);
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (e: Error) => reply({ error: e.message }),
    );
  });
}
