import OpenAI from 'openai';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestDialect, type TestServer } from '../harness.js';
import { FakeOpenAI } from '../fakes/openai-upstream.js';
import { relayState } from '../../src/relay/state.js';

export interface RelayFixture {
  server: TestServer;
  url: string;
  root: ApiClient;
  fake: FakeOpenAI;
  addChannel(fields: Record<string, unknown>): Promise<number>;
  newUser(opts?: { quota?: number; token?: Record<string, unknown> }): Promise<{ userId: number; key: string; tokenId: number; client: ApiClient }>;
  openai(key: string, opts?: { maxRetries?: number }): OpenAI;
  flush(): Promise<void>;
  setOption(key: string, value: string | number | boolean): Promise<void>;
  close(): Promise<void>;
}

let seq = 0;

/** A running gateway on a fresh database, a fake OpenAI upstream and helpers to wire them. */
export async function relayFixture(dialect: TestDialect, env: Record<string, string> = {}): Promise<RelayFixture> {
  const fake = new FakeOpenAI();
  await fake.start();
  const server = await startTestServer(dialect, { env: { BATCH_FLUSH_MS: '60000', ...env } });
  const url = await server.listen();
  const root = new ApiClient(server.app);
  await root.login('root', ROOT_PASSWORD);
  // A known price keeps the arithmetic of billing tests readable: 1 quota per token each way.
  await server.ctx.db.insertInto('prices').values({ model: 'test-model', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
  await server.ctx.store.publish('prices:changed', '');

  const fixture: RelayFixture = {
    server,
    url,
    root,
    fake,
    async addChannel(fields) {
      const res = await root.post('/api/channel/', {
        type: 1,
        name: `ch-${++seq}`,
        key: `key-${seq}`,
        base_url: fake.url,
        models: 'test-model',
        group: 'default',
        ...fields,
      });
      if (!res.body.success) throw new Error(JSON.stringify(res.body));
      const list = await root.get('/api/channel/?order=-id&size=1');
      await relayState(server.ctx).selector.reload();
      return list.body.data.data[0].id;
    },
    async newUser(opts = {}) {
      const name = `u${++seq}x`;
      const anon = new ApiClient(server.app);
      await anon.post('/api/user/register', { username: name, password: 'password123' });
      const client = new ApiClient(server.app);
      const user = await client.login(name, 'password123');
      if (opts.quota) await root.post(`/api/user/quota/${user.id}`, { quota: opts.quota });
      const created = await client.post('/api/token/', { name: 't', unlimited_quota: true, ...opts.token });
      if (!created.body.success) throw new Error(JSON.stringify(created.body));
      const token = (await client.get('/api/token/')).body.data.data[0];
      return { userId: user.id, key: `sk-${token.key}`, tokenId: token.id, client };
    },
    openai: (key, opts) => new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: opts?.maxRetries ?? 0 }),
    // Charges written, then every lease's free part back: the balance columns are exact.
    async flush() {
      await relayState(server.ctx).recorder.flush();
      await relayState(server.ctx).leases.settleUp();
    },
    async setOption(key, value) {
      const res = await root.put('/api/option/', { key, value });
      if (!res.body.success) throw new Error(JSON.stringify(res.body));
    },
    async close() {
      await server.destroy();
      await fake.close();
    },
  };
  return fixture;
}
