import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.js';
import type { Db, DialectName } from './db/index.js';
import type { SharedStore } from './cache/shared-store.js';
import type { OptionStore } from './console/option/option-store.js';
import type { LogRing } from './common/log-ring.js';
import type { RelayTracer } from './telemetry/tracing.js';

/**
 * Everything a service needs, built once in main.ts and handed to route
 * registrations. Areas add their long-lived caches here.
 */
export interface AppContext {
  config: Config;
  db: Db;
  /** Heavy console reads go here (SQLite: worker threads, off the relay's event loop; else `db`). */
  readDb: Db;
  dialect: DialectName;
  store: SharedStore;
  options: OptionStore;
  log: FastifyBaseLogger;
  /** Process start, epoch seconds. */
  startTime: number;
  version: string;
  /** Work to run on graceful shutdown (flush batches, close pools), in order. */
  onClose: Array<() => Promise<void> | void>;
  /** The last server log lines, for the console's log viewer. */
  recentLogs: LogRing;
  /** AES-256 key (derived from the session secret) that seals TOTP secrets at rest. */
  twoFactorKey: Buffer;
  /** OpenTelemetry traces of relay requests; set only when an OTLP endpoint is configured (telemetry/tracing.ts). */
  tracer?: RelayTracer;
  /** AES-256 key (derived from the session secret) that seals MCP servers' credentials at rest. */
  mcpKey: Buffer;
}
