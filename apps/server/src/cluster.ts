// WORKERS > 1: one node served by several processes on one port, each an identical gateway node
// (the first keeps NODE_TYPE, the others are slaves), sharing balances through the database (a
// server or one SQLite file) and limits and caches through Redis or the primary. See
// docs/decisions/0018-worker-processes.md and 0110-workers-on-sqlite.md.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from './config/env.js';
import { ConfigError } from './config/file.js';
import { resolveSessionSecret } from './config/secret.js';
import { parseDsn } from './db/dsn.js';
import { HubError } from './common/errors.js';
import { NODE_STORE_ENV, serveNodeStore } from './cache/node-store.js';
import { apiErrorText, type ApiErrorArgs } from '@one-hub/contract';

/** A worker that exits unasked is started again after this long (so a crash loop does not spin). */
const RESTART_DELAY_MS = 1000;
/** SIGTERM gives the workers this long to finish their requests and last flushes. */
const STOP_GRACE_MS = 20_000;

/** How many processes serve this node: WORKERS, `auto` = one per core. */
export function workerCount(config: Config): number {
  return config.WORKERS === 'auto' ? availableParallelism() : Number(config.WORKERS);
}

/**
 * Worker processes share balances through the database and limits, caches and change notices
 * through Redis or, without it, through the primary (cache/node-store.ts). An in-memory SQLite
 * database cannot be shared by processes: refused.
 */
export function checkWorkerSetup(config: Config, count: number): void {
  if (count <= 1) return;
  const target = parseDsn(config.SQL_DSN, config.SQLITE_PATH);
  if (target.dialect === 'sqlite' && target.path === ':memory:') throw new ConfigError(`WORKERS=${config.WORKERS} needs a database the processes can share: SQLITE_PATH is :memory:. Set WORKERS=1 or a SQLite file.`);
}

/** Worker 0 keeps NODE_TYPE (the master's jobs, bot and pollers run once); the others are slaves. */
const workerEnv = (config: Config, index: number, started: number) => ({
  NODE_TYPE: index > 0 ? 'slave' : config.NODE_TYPE,
  ONE_HUB_WORKER_INDEX: String(index),
  ONE_HUB_NODE_STARTED: String(started),
  ...(config.REDIS_CONN_STRING ? {} : { [NODE_STORE_ENV]: '1' }),
});

const say = (message: string) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: message })}\n`);

/**
 * The primary process: starts worker 0 (it migrates and seeds), then the others once it listens;
 * starts again a worker that dies; on SIGTERM or SIGINT stops them all and exits when they have.
 */
export async function runPrimary(config: Config, count: number): Promise<void> {
  // Saved once here, so the workers do not each write a different one (sessions must be valid on all).
  resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const started = Math.floor(Date.now() / 1000);
  const workers = new Map<Worker, number>();
  // Workers that listen: their routes (and so their answerForNode handlers) are in place.
  const serving = new Set<Worker>();
  let up = false;
  let stopping = false;

  const fork = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const worker = cluster.fork(workerEnv(config, index, started));
      workers.set(worker, index);
      worker.once('listening', () => (serving.add(worker), resolve()));
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        serving.delete(worker);
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
  // Worker 0 started again but not yet listening has no handlers: it is still restarting.
  answerWorkers(() => [...serving].find((w) => workers.get(w) === 0));
  if (!config.REDIS_CONN_STRING) serveNodeStore(() => workers.keys());

  await fork(0);
  await Promise.all(Array.from({ length: count - 1 }, (_, i) => fork(i + 1)));
  up = true;
  if (!stopping) say(`One Hub node serving with ${count} worker processes on port ${config.PORT}`);
}

export const isPrimary = () => cluster.isPrimary;
export const isWorker = () => cluster.isWorker;

/**
 * A question one worker puts to the node, through the primary: `metrics` the primary answers
 * (every worker's series, aggregated), any other topic worker 0 answers (the node's jobs live there).
 */
interface Asked {
  oneHub: 'ask';
  id: number;
  topic: string;
  payload?: unknown;
}
interface Answered {
  oneHub: 'answer';
  id: number;
  value?: unknown;
  /** A failure with its listed console code (packages/contract api-error.ts) and arguments. */
  error?: { message: string; status: number; code?: string | null; args?: ApiErrorArgs };
}
const METRICS = 'metrics';
const ASK_TIMEOUT_MS = 10_000;
let asked = 0;
const waiting = new Map<number, (a: Answered) => void>();

/** This process's place in its node: 0 for the first worker, undefined outside a node of several. */
export function workerIndex(): number | undefined {
  const index = process.env.ONE_HUB_WORKER_INDEX;
  return cluster.isWorker && index !== undefined ? Number(index) : undefined;
}

/** When the node started (Unix seconds): the primary's start for every worker, including one started again. */
export function nodeStartTime(): number {
  const started = Number(process.env.ONE_HUB_NODE_STARTED);
  return cluster.isWorker && started > 0 ? started : Math.floor(Date.now() / 1000);
}

/** A worker other than the first: what worker 0 keeps (the jobs) must be asked of it. */
export const asksFirstWorker = () => (workerIndex() ?? 0) > 0;

/** From a worker: asks the node; a HubError the answerer threw comes back as one (same status and message). */
export function askNode<T>(topic: string, payload?: unknown): Promise<T> {
  if (waiting.size === 0) process.on('message', onAnswer);
  const id = ++asked;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => settle({ oneHub: 'answer', id, error: { message: apiErrorText('node_unanswered'), status: 503, code: 'node_unanswered' } }), ASK_TIMEOUT_MS);
    const settle = (a: Answered) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (waiting.size === 0) process.off('message', onAnswer);
      if (a.error) reject(new HubError(a.error.status, a.error.message, { code: a.error.code ?? null, args: a.error.args }));
      else resolve(a.value as T);
    };
    waiting.set(id, settle);
    process.send!({ oneHub: 'ask', id, topic, payload } satisfies Asked);
  });
}

function onAnswer(message: unknown): void {
  const a = message as Answered;
  if (a?.oneHub === 'answer') waiting.get(a.id)?.(a);
}

/** From a worker: every worker's series, aggregated by the primary (prom-client's cluster aggregator). */
export const nodeMetrics = () => askNode<string>(METRICS);

const handlers = new Map<string, (payload: unknown) => unknown>();

/** In worker 0 (elsewhere nothing): answers the other workers' questions on `topic`. */
export function answerForNode(topic: string, handler: (payload: unknown) => unknown): void {
  if (workerIndex() !== 0) return;
  if (handlers.size === 0)
    process.on('message', (message: Asked) => {
      if (message?.oneHub !== 'ask') return;
      const reply = (a: Omit<Answered, 'oneHub' | 'id'>) => process.send!({ oneHub: 'answer', id: message.id, ...a } satisfies Answered);
      const handle = handlers.get(message.topic);
      if (!handle) return reply({ error: { message: apiErrorText('node_no_handler', { topic: message.topic }), status: 500, code: 'node_no_handler', args: { topic: message.topic } } });
      Promise.resolve()
        .then(() => handle(message.payload))
        .then(
          (value) => reply({ value }),
          (e: Error) => reply({ error: e instanceof HubError ? { message: e.message, status: e.status, code: e.code, args: e.args } : { message: e.message, status: 500 } }),
        );
    });
  handlers.set(topic, handler);
}

/** The primary's side of askNode: metrics answered here, the rest passed to worker 0 and its answer back. */
function answerWorkers(first: () => Worker | undefined): void {
  const aggregator = new AggregatorRegistry();
  let forwarded = 0;
  const relayed = new Map<number, { to: Worker; id: number }>();
  cluster.on('message', (worker, message: Asked | Answered) => {
    if (message?.oneHub === 'answer') {
      const back = relayed.get(message.id);
      relayed.delete(message.id);
      if (back?.to.isConnected()) back.to.send({ ...message, id: back.id } satisfies Answered);
      return;
    }
    if (message?.oneHub !== 'ask') return;
    const reply = (a: Omit<Answered, 'oneHub' | 'id'>) => worker.isConnected() && worker.send({ oneHub: 'answer', id: message.id, ...a } satisfies Answered);
    if (message.topic === METRICS)
      return void aggregator.clusterMetrics().then(
        (text) => reply({ value: text }),
        (e: Error) => reply({ error: { message: e.message, status: 500 } }),
      );
    const to = first();
    if (!to?.isConnected() || to === worker) return void reply({ error: { message: apiErrorText('node_restarting'), status: 503, code: 'node_restarting' } });
    const id = ++forwarded;
    relayed.set(id, { to: worker, id: message.id });
    to.send({ ...message, id } satisfies Asked);
  });
}
