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

/** Set in a worker's environment: its index (0 keeps NODE_TYPE, the others are slaves). */
export const WORKER_INDEX_ENV = 'ONE_HUB_WORKER';
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

/** The environment a worker of `index` starts with. */
function workerEnv(config: Config, index: number): Record<string, string> {
  return { [WORKER_INDEX_ENV]: String(index), ...(index > 0 ? { NODE_TYPE: 'slave' } : { NODE_TYPE: config.NODE_TYPE }) };
}

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

/** What a worker may ask the primary: the node's metrics, every worker's series aggregated. */
type Question = 'metrics';
interface Asked {
  oneHub: 'ask';
  id: number;
  question: Question;
}
interface Answered {
  oneHub: 'answer';
  id: number;
  value?: unknown;
  error?: string;
}
const ASK_TIMEOUT_MS = 10_000;
let asked = 0;
const waiting = new Map<number, (a: Answered) => void>();

/** Asks the primary (from a worker) and answers what it said. */
export function askPrimary<T>(question: Question): Promise<T> {
  if (waiting.size === 0) process.on('message', onAnswer);
  const id = ++asked;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => settle({ oneHub: 'answer', id, error: 'the primary process did not answer' }), ASK_TIMEOUT_MS);
    const settle = (a: Answered) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (waiting.size === 0) process.off('message', onAnswer);
      if (a.error !== undefined) reject(new Error(a.error));
      else resolve(a.value as T);
    };
    waiting.set(id, settle);
    process.send!({ oneHub: 'ask', id, question } satisfies Asked);
  });
}

function onAnswer(message: unknown): void {
  const a = message as Answered;
  if (a?.oneHub === 'answer') waiting.get(a.id)?.(a);
}

/** The primary's side of askPrimary. */
function answerWorkers(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Asked) => {
    if (message?.oneHub !== 'ask') return;
    const reply = (a: Omit<Answered, 'oneHub' | 'id'>) => worker.isConnected() && worker.send({ oneHub: 'answer', id: message.id, ...a } satisfies Answered);
    if (message.question !== 'metrics') return reply({ error: `unknown question ${String(message.question)}` });
    aggregator.clusterMetrics().then(
      (value) => reply({ value }),
      (e: Error) => reply({ error: e.message }),
    );
  });
}
