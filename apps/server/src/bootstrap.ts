import pino from 'pino';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config/env.js';
import type { AppContext } from './app-context.js';
import { openDb, migrate } from './db/index.js';
import { waitForDatabase } from './db/wait.js';
import { SharedStore } from './cache/shared-store.js';
import { OptionStore } from './console/option/option-store.js';
import { buildApp } from './http/app.js';
import { resolveSessionSecret } from './config/secret.js';
import { deriveKey } from './common/seal.js';
import { initServices } from './init.js';
import { LogRing } from './common/log-ring.js';
import { setPrivateNetworksAllowed } from './egress/guard.js';
import { nodeStartTime } from './cluster.js';
import { startTracing } from './telemetry/tracing.js';

export const VERSION = process.env.ONE_HUB_VERSION ?? 'v0.1.0';

export interface CreateOptions {
  webDist?: string;
  /** PostgreSQL schema (tests). */
  pgSchema?: string;
  logger?: FastifyBaseLogger;
}

export interface Running {
  app: FastifyInstance;
  ctx: AppContext;
  /** Flushes batches and closes every pool; safe to call twice. */
  close(): Promise<void>;
}

/** Builds the whole server (migrated database, caches, routes) without listening. */
export async function createServer(config: Config, opts: CreateOptions = {}): Promise<Running> {
  const recentLogs = new LogRing();
  const hooks = {
    logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void, level: number) {
      recentLogs.record(level, args);
      return method.apply(this, args);
    },
  };
  const log = opts.logger ?? (pino({ level: config.LOG_LEVEL, hooks } as pino.LoggerOptions) as unknown as FastifyBaseLogger);
  const handle = await openDb({ dsn: config.SQL_DSN, sqlitePath: config.SQLITE_PATH, pgSchema: opts.pgSchema });
  try {
    await waitForDatabase(handle.db, config.SQL_DSN, config.DB_CONNECT_TIMEOUT_SECONDS, log);
    await migrate(handle.db, opts.pgSchema);
  } catch (error) {
    // An unreachable database, a refused or failed migration leaves no connection behind (the database stays as it was).
    await handle.close();
    throw error;
  }
  const store = await SharedStore.open(log, config.REDIS_CONN_STRING, config.REDIS_KEY_PREFIX);
  const options = new OptionStore(handle.db, store);
  // The original's default names port 3000 whatever the port; ours follows PORT (a stored value wins).
  options.setDefault('ServerAddress', `http://localhost:${config.PORT}`);
  await store.ready();
  await options.load();
  const egress = () => setPrivateNetworksAllowed(options.get('FetchAllowPrivateNetworks'));
  egress();
  options.onChange(egress);
  const sessionSecret = resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const ctx: AppContext = {
    config,
    db: handle.db,
    readDb: handle.readDb,
    dialect: handle.dialect,
    store,
    options,
    log,
    startTime: nodeStartTime(),
    version: VERSION,
    onClose: [],
    recentLogs,
    twoFactorKey: deriveKey(sessionSecret, 'two-factor secret'),
    // Loaded only when an endpoint is configured.
    tracer: await startTracing(config, log, VERSION),
    mcpKey: deriveKey(sessionSecret, 'mcp credentials'),
  };
  // Safety net beside pub/sub: every node re-reads the options table periodically.
  const reloadOptions = () => void options.load().catch((e) => log.warn({ err: e }, 'option resync failed'));
  const resync = setInterval(reloadOptions, config.SYNC_FREQUENCY * 1000);
  resync.unref();
  ctx.onClose.push(() => clearInterval(resync));
  // Changes other nodes announced while Redis was unreachable were missed.
  store.onRecover(reloadOptions);
  await initServices(ctx);
  const app = await buildApp(ctx, { sessionSecret, webDist: opts.webDist });
  let closed = false;
  return {
    app,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      for (const fn of ctx.onClose) await fn();
      // Spans of the last requests go out before the process ends.
      await ctx.tracer?.shutdown().catch((e) => log.warn({ err: e }, 'OpenTelemetry flush failed'));
      await store.close();
      await handle.close();
    },
  };
}
