import { ApiClient, ROOT_PASSWORD, startTestServer, type TestDialect, type TestServer, type TestServerOptions } from '../harness.js';
import { insertLog, type NewLog } from '../../src/db/repos/logs.js';
import { upsertStatistics, type StatRow } from '../../src/db/repos/log-writes.js';

export interface TestUser {
  id: number;
  username: string;
  client: ApiClient;
}

export interface ConsoleFixture {
  server: TestServer;
  root: ApiClient;
  /** Registers and signs in a new common user; `admin` promotes them to role 10 first. */
  newUser(opts?: { admin?: boolean }): Promise<TestUser>;
  /** Writes log rows directly (the relay's recorder writes them in production). */
  addLogs(rows: Array<Partial<NewLog> & { created_at: number; type: number }>): Promise<void>;
  addStatistics(rows: Array<Partial<StatRow> & { date: string; user_id: number }>): Promise<void>;
  close(): Promise<void>;
}

let seq = 0;

export async function consoleFixture(dialect: TestDialect, opts: TestServerOptions = {}): Promise<ConsoleFixture> {
  const server = await startTestServer(dialect, opts);
  const root = new ApiClient(server.app);
  await root.login('root', ROOT_PASSWORD);
  return {
    server,
    root,
    async newUser(opts = {}) {
      const username = `cu${++seq}${Math.random().toString(36).slice(2, 6)}`;
      const reg = await new ApiClient(server.app).post('/api/user/register', { username, password: 'password123' });
      if (!reg.body?.success) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
      if (opts.admin) {
        const promoted = await root.post('/api/user/manage', { username, action: 'promote' });
        if (!promoted.body?.success) throw new Error(`promote failed: ${JSON.stringify(promoted.body)}`);
      }
      const client = new ApiClient(server.app);
      const self = await client.login(username, 'password123');
      return { id: self.id, username, client };
    },
    async addLogs(rows) {
      for (const row of rows) await insertLog(server.ctx.db, { content: '', ...row });
    },
    async addStatistics(rows) {
      await upsertStatistics(
        server.ctx.db,
        rows.map((r) => ({ channel_id: 0, model_name: 'm', request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0, ...r })),
      );
    },
    close: () => server.destroy(),
  };
}

/** Epoch seconds of a UTC day ('YYYY-MM-DD') plus an offset in seconds. */
export const at = (day: string, offset = 0) => Date.parse(`${day}T00:00:00Z`) / 1000 + offset;
export const today = () => new Date().toISOString().slice(0, 10);
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
