import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects, type TestServer } from '../harness.js';

/** The user-group table sorts by every column it shows (console-screens §3.17). */
describe.each(testDialects())('user group list order on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    // seeded: default (public), vip, svip — all min 0, max 0, no promotion
    for (const g of [
      { symbol: 'bronze', name: 'Bronze', public: true, promotion: true, min: 10, max: 50 },
      { symbol: 'silver', name: 'Silver', public: false, promotion: true, min: 50, max: 200 },
    ]) {
      expect((await root.post('/api/user_group/', g)).body.success).toBe(true);
    }
  });
  afterAll(async () => server?.destroy());

  const symbols = async (order: string) => {
    const res = await root.get(`/api/user_group/?order=${order}&size=100`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data.data as Array<{ symbol: string }>).map((g) => g.symbol);
  };

  it('orders by min and max, ascending and descending', async () => {
    expect((await symbols('-min,id')).slice(0, 2)).toEqual(['silver', 'bronze']);
    expect((await symbols('max,id')).slice(-2)).toEqual(['bronze', 'silver']);
  });

  it('orders by the public and promotion flags', async () => {
    expect((await symbols('-public,id')).slice(0, 2)).toEqual(['default', 'bronze']);
    expect((await symbols('-promotion,id')).slice(0, 2)).toEqual(['bronze', 'silver']);
    expect((await symbols('promotion,id')).slice(-2)).toEqual(['bronze', 'silver']);
  });

  it('still refuses a column it does not show', async () => {
    const res = await root.get('/api/user_group/?order=deleted_at');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});
