// A gateway run as its own process in a test (so it can be killed or fork workers), from the sources.
import { join } from 'node:path';

/** `node [GATEWAY_ARGS]` with this working directory starts the gateway from src/main.ts. */
export const SERVER_DIR = join(import.meta.dirname, '..');
export const GATEWAY_ARGS = ['--import', 'tsx', 'src/main.ts'];

/**
 * Its environment: a random listening port on loopback, data and SQLite file in `dir`, no console bundle, rate
 * limits off, log rows written every 200 ms and quota slices of a dead process back after 3 s.
 */
export function gatewayProcessEnv(dir: string, rootPassword: string) {
  return {
    // Below Linux's ephemeral range (32768+): an outgoing connection of another test cannot hold it.
    PORT: String(20_000 + Math.floor(Math.random() * 12_000)),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    SQLITE_PATH: join(dir, 'one-hub.db'),
    INITIAL_ROOT_PASSWORD: rootPassword,
    LOG_LEVEL: 'info',
    GLOBAL_API_RATE_LIMIT: '0',
    CRITICAL_RATE_LIMIT: '0',
    BATCH_FLUSH_MS: '200',
    QUOTA_LEASE_TTL_SECONDS: '3',
    WEB_DIST: join(dir, 'no-web'),
  };
}
