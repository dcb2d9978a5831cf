import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { FakeOidc } from '../fakes/oidc.js';
import { FakeWebhookReceiver } from '../fakes/webhook-receiver.js';
import { FakeSmtp } from './fake-smtp.js';

const CONSOLE = 'http://hub.test';
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
};

/**
 * Issue 35 defect 10: with FetchAllowPrivateNetworks off, the outside parties an admin names
 * (OIDC issuer, SMTP server, notification webhook) are not contacted on loopback, and an
 * anonymous caller's answer names neither the address nor the failure.
 */
describe('egress guard for non-relay outside parties (FetchAllowPrivateNetworks off)', () => {
  let server: TestServer;
  let root: ApiClient;
  const idp = new FakeOidc('hub-client', 'hub-secret-long-enough-for-hs256-0123456789', `${CONSOLE}/oauth/oidc`);
  const smtp = new FakeSmtp();
  const receiver = new FakeWebhookReceiver('hook-secret');
  const logged = () => server.ctx.recentLogs.last(500).map((l) => l.Message).join('\n');
  const setPrivate = (on: boolean) => root.put('/api/option/', { key: 'FetchAllowPrivateNetworks', value: String(on) });

  beforeAll(async () => {
    await idp.start();
    const smtpPort = await smtp.start();
    const hook = await receiver.start();
    server = await startTestServer('sqlite', {
      privateNetworks: false,
      env: {
        NOTIFY_WEBHOOK_URL: `${hook}/hooks/one-hub`,
        NOTIFY_WEBHOOK_SECRET: 'hook-secret',
        NOTIFY_RETRY_BASE_MS: '1',
        AUTO_PRICE_UPDATES_MODE: 'add',
        UPDATE_PRICE_SERVICE: `${hook}/prices.json`,
      },
    });
    root = new ApiClient(server.app);
    await root.login('root', ROOT_PASSWORD);
    await server.ctx.options.save({
      ServerAddress: CONSOLE,
      OIDCAuthEnabled: 'true',
      OIDCClientId: idp.clientId,
      OIDCClientSecret: idp.clientSecret,
      OIDCIssuer: idp.issuer,
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtpPort),
      SMTPFrom: 'hub@example.com',
    });
  });
  afterAll(async () => {
    await server?.destroy();
    await Promise.all([idp.close(), smtp.close(), receiver.close()]);
  });

  it('does not discover an OIDC issuer on loopback and answers a generic message', async () => {
    const res = await new ApiClient(server.app).get('/api/oauth/endpoint');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, message: 'OIDC 服务暂不可用，请稍后重试 (OIDC provider unavailable)' });
    expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
    expect(idp.connections).toBe(0);
    expect(logged()).toMatch(/OIDC provider http:\/\/127\.0\.0\.1:\d+ unavailable: .*private or local network/);
  });

  it('does not connect to an SMTP server on loopback for an anonymous verification mail', async () => {
    const res = await new ApiClient(server.app).get('/api/verification?email=someone@example.com');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('邮件发送失败，请稍后重试或联系管理员 (mail could not be sent)');
    expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
    expect(smtp.connections).toBe(0);
    expect(logged()).toMatch(/mail not sent via 127\.0\.0\.1: .*private or local network/);
  });

  it('refuses the price list and the notification webhook on loopback', async () => {
    expect((await root.post('/api/system_info/jobs/price_sync/run', {})).body.success).toBe(true);
    await until(() => receiver.events.length > 0 || /notification to webhook failed after \d+ attempts/.test(logged()));
    expect(logged()).toMatch(/notification to webhook failed after \d+ attempts: .*private or local network/);
    expect(receiver.received).toHaveLength(0);
  });

  it('reaches all of them once the option is on', async () => {
    expect((await setPrivate(true)).body.success).toBe(true);
    try {
      expect((await new ApiClient(server.app).get('/api/oauth/endpoint')).body.success).toBe(true);
      expect(idp.connections).toBeGreaterThan(0);
      expect((await new ApiClient(server.app).get('/api/verification?email=someone@example.com')).body.success).toBe(true);
      expect(smtp.mails.at(-1)?.to.join()).toContain('someone@example.com');
      expect((await root.post('/api/system_info/jobs/price_sync/run', {})).body.success).toBe(true);
      await until(() => receiver.events.length > 0); // the sync fails (no price list there), and that notice is delivered
      expect(receiver.events[0].title).toBe('Price sync failed');
    } finally {
      await setPrivate(false);
    }
  });
});
