import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';

describe('ServerAddress default', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { PORT: '4123' } });
  });
  afterAll(async () => server?.destroy());

  it('follows the configured PORT until root stores an address', async () => {
    const anon = new ApiClient(server.app);
    expect((await anon.get('/api/status')).body.data.server_address).toBe('http://localhost:4123');
    const root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    expect((await root.put('/api/option/', { key: 'ServerAddress', value: 'https://hub.example.com' })).body.success).toBe(true);
    expect((await anon.get('/api/status')).body.data.server_address).toBe('https://hub.example.com');
  });
});
