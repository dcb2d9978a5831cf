export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export type DbTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string }
  | {
      dialect: 'mysql';
      host: string;
      port: number;
      user: string;
      password: string;
      database: string;
    };

/**
 * Reads SQL_DSN the way the original did, plus URL forms:
 * - empty → SQLite at sqlitePath
 * - postgres://… or postgresql://…
 * - mysql://user:pass@host:port/db
 * - user:pass@tcp(host:port)/db?params (Go MySQL driver form)
 */
export function parseDsn(dsn: string | undefined, sqlitePath: string): DbTarget {
  const value = dsn?.trim();
  if (!value) return { dialect: 'sqlite', path: sqlitePath };
  if (/^postgres(ql)?:\/\//i.test(value)) return { dialect: 'postgres', url: value };
  if (/^mysql:\/\//i.test(value)) {
    const url = new URL(value);
    return {
      dialect: 'mysql',
      host: url.hostname || '127.0.0.1',
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username || 'root'),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    };
  }
  const go = /^(?:([^:@]*)(?::([^@]*))?@)?(?:tcp\(([^)]*)\))?\/([^?]*)/.exec(value);
  if (go) {
    const [host, port] = (go[3] || '127.0.0.1:3306').split(':');
    return {
      dialect: 'mysql',
      host: host || '127.0.0.1',
      port: Number(port || 3306),
      user: go[1] || 'root',
      password: go[2] ?? '',
      database: go[4],
    };
  }
  throw new Error(`SQL_DSN is not a PostgreSQL URL, a mysql:// URL or a user:pass@tcp(host:port)/db DSN`);
}
