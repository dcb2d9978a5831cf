import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { FakeUptimeKuma } from '../fakes/uptime-kuma.js';

const PAGE = {
  config: { slug: 'main', title: 'Main status', autoRefreshInterval: 300 },
  incident: null,
  publicGroupList: [{ id: 1, name: 'Services', weight: 1, monitorList: [{ id: 3, name: 'API', type: 'http' }] }],
  maintenanceList: [],
};
const HEARTBEAT = {
  heartbeatList: { '3': [{ status: 1, time: '2026-11-23 09:00:00.000', msg: '200 - OK', ping: 42 }] },
  uptimeList: { '3_24': 0.9987 },
};

// The feature keeps no data in the database, so one dialect is enough.
describe('Uptime Kuma status page proxy', () => {
  let kuma: FakeUptimeKuma;
  const servers: TestServer[] = [];

  async function signedIn(env: Record<string, string>) {
    const server = await startTestServer('sqlite', { env });
    servers.push(server);
    const client = new ApiClient(server.app);
    await client.login('root', ROOT_PASSWORD);
    return { server, client };
  }

  beforeAll(async () => {
    kuma = new FakeUptimeKuma();
    await kuma.start();
    kuma.pages.set('main page', { page: PAGE, heartbeat: HEARTBEAT });
  });
  afterAll(async () => {
    for (const s of servers) await s.destroy();
    await kuma.close();
  });

  it('passes the status page and heartbeats through as received, and reports them in /api/status', async () => {
    const { client, server } = await signedIn({ UPTIME_KUMA_ENABLE: 'true', UPTIME_KUMA_DOMAIN: `${kuma.url}/`, UPTIME_KUMA_STATUS_PAGE_NAME: 'main page' });
    const page = await client.get('/api/user/dashboard/uptimekuma/status-page');
    expect(page.status).toBe(200);
    expect(page.raw.headers['content-type']).toContain('application/json');
    expect(page.body).toEqual(PAGE);
    const beats = await client.get('/api/user/dashboard/uptimekuma/status-page/heartbeat');
    expect(beats.body).toEqual(HEARTBEAT);
    expect(kuma.requests.at(-2)).toMatch(/^\/api\/status-page\/main%20page\?t=\d+$/);
    expect(kuma.requests.at(-1)).toMatch(/^\/api\/status-page\/heartbeat\/main%20page\?t=\d+$/);
    const status = (await client.get('/api/status')).body.data;
    expect(status).toMatchObject({ UptimeEnabled: true, UptimeDomain: `${kuma.url}/`, UptimePageName: 'main page' });
    const anonymous = await new ApiClient(server.app).get('/api/user/dashboard/uptimekuma/status-page');
    expect(anonymous.status).toBe(401);
  });

  it('answers a clean envelope when the server fails, is unreachable or is not configured', async () => {
    const wrongSlug = await signedIn({ UPTIME_KUMA_DOMAIN: kuma.url, UPTIME_KUMA_STATUS_PAGE_NAME: 'nope' });
    const missing = await wrongSlug.client.get('/api/user/dashboard/uptimekuma/status-page');
    expect(missing).toMatchObject({ status: 502, body: { success: false, message: 'Uptime Kuma answered HTTP 404' } });

    const gone = new FakeUptimeKuma();
    await gone.start();
    await gone.close(); // a port nobody listens on any more
    const down = await signedIn({ UPTIME_KUMA_DOMAIN: gone.url, UPTIME_KUMA_STATUS_PAGE_NAME: 'main' });
    const unreachable = await down.client.get('/api/user/dashboard/uptimekuma/status-page/heartbeat');
    expect(unreachable.status).toBe(502);
    // a common user is told it is down, not where it lives or how the socket failed; the log says
    expect(unreachable.body).toMatchObject({ success: false, message: 'Uptime Kuma is unreachable' });
    expect(down.server.ctx.recentLogs.last(50).map((l) => l.Message).join('\n')).toMatch(/Uptime Kuma http:\/\/127\.0\.0\.1:\d+ is unreachable: .*ECONNREFUSED/);

    const none = await signedIn({});
    expect(await none.client.get('/api/user/dashboard/uptimekuma/status-page')).toMatchObject({
      status: 503,
      body: { success: false, message: 'Uptime Kuma is not configured' },
    });
    expect((await none.client.get('/api/status')).body.data).toMatchObject({ UptimeEnabled: false, UptimeDomain: '' });
  });
});
