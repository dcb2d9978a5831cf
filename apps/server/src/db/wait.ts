import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './index.js';
import { parseDsn, type DbTarget } from './dsn.js';
import { StartupError } from '../common/startup-error.js';

/** Errors of a server that is not (yet) accepting connections; anything else will not cure itself. */
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', '57P03', 'PROTOCOL_CONNECTION_LOST', 'ER_SERVER_SHUTDOWN']);

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; errors?: Array<{ code?: unknown }> };
  const code = e?.code ?? e?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `host:port` of a database server, never its user or password. */
export function describeTarget(target: DbTarget): string {
  if (target.dialect === 'sqlite') return target.path;
  if (target.dialect === 'mysql') return `${target.host}:${target.port}`;
  const url = new URL(target.url);
  return `${url.hostname || 'localhost'}:${url.port || 5432}`;
}

function password(target: DbTarget): string {
  if (target.dialect === 'mysql') return target.password;
  if (target.dialect === 'postgres') return decodeURIComponent(new URL(target.url).password);
  return '';
}

/**
 * Waits for the database server to accept a query, retrying with backoff (0.2 s doubling to 5 s)
 * for up to `timeoutSeconds`. Fails with a one-line StartupError naming host:port when the time is
 * up or the server refuses for good (wrong password, unknown database). SQLite is not waited for.
 */
export async function waitForDatabase(db: Db, dsn: string | undefined, timeoutSeconds: number, log: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
  const target = parseDsn(dsn, '');
  if (target.dialect === 'sqlite') return;
  const where = `${target.dialect} at ${describeTarget(target)}`;
  const secret = password(target);
  const reason = (error: unknown) => {
    const text = (error instanceof Error && error.message) || errorCode(error) || String(error);
    return (secret ? text.split(secret).join('***') : text).replace(/\s+/g, ' ');
  };
  const deadline = Date.now() + timeoutSeconds * 1000;
  let delay = 200;
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`SELECT 1`.execute(db);
      return;
    } catch (error) {
      if (!TRANSIENT.has(errorCode(error) ?? '')) throw new StartupError(`database ${where} refused the connection: ${reason(error)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new StartupError(`database ${where} not reachable after ${timeoutSeconds} s: ${reason(error)}`);
      if (attempt === 1) log.warn(`database ${where} not reachable yet (${errorCode(error)}), retrying for up to ${timeoutSeconds} s`);
      await new Promise((r) => setTimeout(r, Math.min(delay, left)));
      delay = Math.min(delay * 2, 5000);
    }
  }
}
