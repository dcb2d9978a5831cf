import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';

/** The site address the credential tests run under (WebAuthn binds to it). */
export const ORIGIN = 'https://hub.example.com';

/** A SQLite server without the critical-route limit, root signed in and the site address set to ORIGIN. */
export async function rootOnOrigin(): Promise<{ server: TestServer; root: ApiClient }> {
  const server = await startTestServer('sqlite', { env: { CRITICAL_RATE_LIMIT: '0' } });
  const root = new ApiClient(server.app);
  await root.login('root', ROOT_PASSWORD);
  const set = await root.put('/api/option/', { key: 'ServerAddress', value: ORIGIN });
  if (!set.body.success) throw new Error(`ServerAddress not set: ${set.body.message}`);
  return { server, root };
}
