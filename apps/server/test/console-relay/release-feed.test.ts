import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { FakeReleaseFeed } from '../fakes/release-feed.js';

// No data in the database: one dialect is enough.
describe('release feed behind "Check update"', () => {
  let feed: FakeReleaseFeed;
  const servers: TestServer[] = [];
  async function root(env: Record<string, string>) {
    const server = await startTestServer('sqlite', { env });
    servers.push(server);
    const client = new ApiClient(server.app);
    await client.login('root', ROOT_PASSWORD);
    return client;
  }
  beforeAll(async () => {
    feed = new FakeReleaseFeed();
    await feed.start();
  });
  afterAll(async () => {
    for (const s of servers) await s.destroy();
    await feed.close();
  });

  it('serves the configured feed\'s latest release to root, and says in /api/status that it exists', async () => {
    const client = await root({ RELEASE_FEED_URL: `${feed.url}/releases/latest` });
    expect((await client.get('/api/status')).body.data.release_feed).toBe(true);
    feed.latest = { tag_name: 'v1.4.0', body: '## Notes', html_url: 'http://127.0.0.1/r/v1.4.0', assets: [] };
    const res = await client.get('/api/option/release/latest');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ tag_name: 'v1.4.0', body: '## Notes', html_url: 'http://127.0.0.1/r/v1.4.0' });
    feed.latest = null; // the feed answers 404: a clean 502, not a 500
    expect((await client.get('/api/option/release/latest')).status).toBe(502);
  });

  it('has no feed by default: /api/status says so and the endpoint answers 503', async () => {
    const client = await root({});
    expect((await client.get('/api/status')).body.data.release_feed).toBe(false);
    const res = await client.get('/api/option/release/latest');
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('RELEASE_FEED_URL');
  });
});
