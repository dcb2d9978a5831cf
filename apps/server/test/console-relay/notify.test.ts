import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/env.js';
import { dingTalkTarget } from '../../src/notify/dingtalk/index.js';
import { larkTarget } from '../../src/notify/lark/index.js';
import { webhookTarget } from '../../src/notify/webhook/index.js';
import { FakeSmtp } from '../accounts/fake-smtp.js';
import { FakeDingTalk } from '../fakes/dingtalk.js';
import { FakeLark } from '../fakes/lark-robot.js';
import { FakeOpenAI } from '../fakes/openai-upstream.js';
import { FakePushDeer } from '../fakes/pushdeer.js';
import { FakeTelegram } from '../fakes/telegram.js';
import { FakeWebhookReceiver } from '../fakes/webhook-receiver.js';
import { emitJobNotice } from '../../src/jobs/notices.js';
import { FakeWeCom } from '../fakes/wecom.js';
import { FakeNativeProviders } from '../fakes/native-providers.js';
import { billLastMonth } from '../../src/console/dashboard/invoice-service.js';
import { registerPayProvider } from '../../src/console/payment/providers.js';
import { consoleFixture, type ConsoleFixture } from './setup.js';

const NOTIFY_BOT = '555000111:AAHnotifyBotToken';
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
};

/** Admin notifications to every target kind, each robot checking its own signature scheme. */
describe('admin notifications', () => {
  const smtp = new FakeSmtp();
  const telegram = new FakeTelegram(NOTIFY_BOT);
  const dingtalk = new FakeDingTalk('ding-token', { secret: 'SECding-secret' });
  const lark = new FakeLark('lark-token', { secret: 'lark-secret', keyword: 'OneHub' });
  const wecom = new FakeWeCom('wecom-key');
  const pushdeer = new FakePushDeer('PDU1key');
  const receiver = new FakeWebhookReceiver('hook-secret');
  const upstream = new FakeOpenAI();
  const billing = new FakeNativeProviders();
  let f: ConsoleFixture;
  let env: Record<string, string>;

  const counts = () => ({
    email: smtp.mails.length,
    telegram: telegram.sent.length,
    dingtalk: dingtalk.messages.length,
    lark: lark.messages.length,
    wecom: wecom.messages.length,
    pushdeer: pushdeer.messages.length,
    webhook: receiver.events.length,
  });

  beforeAll(async () => {
    const smtpPort = await smtp.start();
    for (const fake of [telegram, dingtalk, lark, wecom, pushdeer, receiver]) await fake.start();
    await upstream.start();
    await billing.start();
    env = {
      NOTIFY_EMAIL_SMTP_TO: 'ops@example.com',
      TELEGRAM_API_BASE_URL: telegram.url,
      NOTIFY_TELEGRAM_BOT_API_KEY: NOTIFY_BOT,
      NOTIFY_TELEGRAM_CHAT_ID: '-1001234',
      NOTIFY_DINGTALK_URL: `${dingtalk.url}/robot/send`,
      NOTIFY_DINGTALK_TOKEN: 'ding-token',
      NOTIFY_DINGTALK_SECRET: 'SECding-secret',
      NOTIFY_LARK_URL: `${lark.url}/open-apis/bot/v2/hook`,
      NOTIFY_LARK_TOKEN: 'lark-token',
      NOTIFY_LARK_SECRET: 'lark-secret',
      NOTIFY_LARK_KEYWORD: 'OneHub',
      NOTIFY_WECOM_WEBHOOK: wecom.webhook,
      NOTIFY_PUSHDEER_URL: pushdeer.url,
      NOTIFY_PUSHDEER_PUSHKEY: 'PDU1key',
      NOTIFY_WEBHOOK_URL: `${receiver.url}/hooks/one-hub`,
      NOTIFY_WEBHOOK_SECRET: 'hook-secret',
      NOTIFY_RETRY_BASE_MS: '20',
      NOTIFY_CHANNEL_BALANCE_THRESHOLD: '100',
    };
    f = await consoleFixture('sqlite', { env });
    for (const [key, value] of [
      ['SMTPServer', '127.0.0.1'],
      ['SMTPPort', String(smtpPort)],
      ['SMTPFrom', 'hub@example.com'],
      ['AutomaticDisableChannelEnabled', 'true'],
      ['AutomaticEnableChannelEnabled', 'true'],
    ]) {
      expect((await f.root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
  });
  afterAll(async () => {
    await f?.close();
    for (const fake of [telegram, dingtalk, lark, wecom, pushdeer, receiver, upstream, billing]) await fake.close();
    await smtp.close();
  });

  it('sends exactly one notice to each target when a channel is disabled automatically, retrying failures', async () => {
    upstream.behave('dead-key', { status: 401, errorBody: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
    const created = await f.root.post('/api/channel/', { type: 1, name: 'flaky-upstream', key: 'dead-key', models: 'gpt-4o', group: 'default', base_url: upstream.url });
    expect(created.body.success).toBe(true);
    const id = (await f.root.get('/api/channel/?name=flaky-upstream')).body.data.data[0].id;
    dingtalk.failures = 1;
    receiver.failures = 2;

    const test = await f.root.get(`/api/channel/test/${id}`);
    expect(test.body.success).toBe(false);
    expect((await f.root.get(`/api/channel/${id}`)).body.data.status).toBe(3);

    await until(() => Object.values(counts()).every((n) => n >= 1));
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up
    expect(counts()).toEqual({ email: 1, telegram: 1, dingtalk: 1, lark: 1, wecom: 1, pushdeer: 1, webhook: 1 });
    expect(smtp.mails[0].to.join()).toContain('ops@example.com');
    expect(smtp.lastTo('ops@example.com')).toContain('Incorrect API key provided');
    expect(telegram.sent[0]).toMatchObject({ chat_id: -1001234 });
    expect(telegram.sent[0].text).toContain('flaky-upstream');
    expect(lark.messages[0]).toMatch(/^OneHub /);
    expect(wecom.messages[0]).toContain(`#${id}`);
    expect(pushdeer.messages[0].desp).toContain('Incorrect API key provided');
    expect(receiver.events[0]).toMatchObject({ event: 'channel_disabled', title: expect.stringContaining('flaky-upstream') });
    // The failed attempts were logged, not lost.
    const log = f.server.ctx.recentLogs.last(500).map((l) => l.Message).join('\n');
    expect(log).toMatch(/notification to dingtalk failed \(attempt 1\), retrying: dingtalk refused: system busy/);
    expect(log).toMatch(/notification to webhook failed \(attempt 2\)/);
    expect(log).not.toContain(NOTIFY_BOT);
  });

  it('tells the targets when a channel passes its test and is re-enabled, without the request waiting for them', async () => {
    upstream.behave('dead-key', { content: 'ok' });
    const id = (await f.root.get('/api/channel/?name=flaky-upstream')).body.data.data[0].id;
    const release = receiver.hold();
    expect((await f.root.get(`/api/channel/test/${id}`)).body.success).toBe(true);
    // The console answered while the webhook target still holds the notice.
    await until(() => receiver.waiting === 1);
    expect(receiver.events).toHaveLength(1);
    release();
    await until(() => receiver.events.length === 2 && dingtalk.messages.length === 2);
    expect(receiver.events[1]).toMatchObject({ event: 'channel_enabled' });
  });

  it('tells once when a channel balance crosses below the threshold, and when the monthly bills are generated', async () => {
    const created = await f.root.post('/api/channel/', { type: 1, name: 'billed', key: 'bk', models: 'gpt-4o', group: 'default', base_url: billing.url });
    expect(created.body.success).toBe(true);
    const id = (await f.root.get('/api/channel/?name=billed')).body.data.data[0].id;
    const low = () => receiver.events.filter((e) => e.event === 'channel_balance_low');
    expect((await f.root.get(`/api/channel/update_balance/${id}`)).body.balance).toBeCloseTo(87.66); // 100 - 1234 cents
    await until(() => low().length === 1);
    expect(low()[0].text).toContain('87.66 < 100');
    await f.root.get(`/api/channel/update_balance/${id}`); // still below: not a new crossing
    await new Promise((r) => setTimeout(r, 200));
    expect(low()).toHaveLength(1);

    await billLastMonth(f.server.ctx);
    await until(() => receiver.events.some((e) => e.event === 'monthly_bills'));
  });

  it('passes on the scheduled jobs\' notices, except the channel test\'s (each disable is told once already)', async () => {
    const jobs = () => receiver.events.filter((e) => e.event === 'job_notice');
    emitJobNotice(f.server.ctx, { job: 'channel_test', title: 'Channel test', text: '- disabled #1 a' });
    emitJobNotice(f.server.ctx, { job: 'price_sync', title: 'Price sync failed', text: 'HTTP 500' });
    await until(() => jobs().length === 1);
    expect(jobs()[0]).toMatchObject({ title: 'Price sync failed', text: 'HTTP 500' });
  });

  it('tells when a verified payment notice cannot be applied (amount differs from the order)', async () => {
    // A stand-in gateway whose notices are taken as verified; the order service still checks the amount.
    const remove = registerPayProvider('stripe', {
      createPayment: async (_g, order) => ({ type: 1, data: { url: `https://checkout.example/${order.tradeNo}` } }),
      handleNotify: async (_g, req) => {
        const event = JSON.parse((req.body as Buffer).toString('utf8'));
        return { notice: { tradeNo: event.trade_no, gatewayNo: 'pi_9', paid: { amount: event.amount, currency: 'usd' } }, ack: { status: 200, body: '' } };
      },
    });
    try {
      const gw = (await f.root.post('/api/payment/', { type: 'stripe', name: 'Stripe', icon: 'https://pay.example/icon.png', currency: 'USD', percent_fee: 0, config: JSON.stringify({ secret_key: 'sk', webhook_secret: 'whsec_test' }) })).body.data;
      const buyer = await f.newUser();
      const { trade_no: tradeNo } = (await buyer.client.post('/api/user/order', { uuid: gw.uuid, amount: 10 })).body.data;
      const res = await f.server.app.inject({ method: 'POST', url: `/api/payment/notify/${gw.uuid}`, payload: JSON.stringify({ trade_no: tradeNo, amount: 0.01 }), headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(200);
      await until(() => receiver.events.some((e) => e.event === 'payment_notify_failed'));
      expect(receiver.events.find((e) => e.event === 'payment_notify_failed')!.text).toBe(`gateway #${gw.id}, order ${tradeNo}: amount_mismatch`);
    } finally {
      remove();
    }
  });

  it('signs like each robot requires: a wrong secret or keyword is refused by the fakes', async () => {
    const wrong = loadConfig({ ...env, NOTIFY_DINGTALK_SECRET: 'SECother', NOTIFY_LARK_SECRET: 'other', NOTIFY_WEBHOOK_SECRET: 'other' });
    const notice = { event: 'monthly_bills' as const, title: 't', text: 'x' };
    await expect(dingTalkTarget(wrong).send(notice)).rejects.toThrow('sign not match');
    await expect(larkTarget(wrong).send(notice)).rejects.toThrow('sign match fail');
    await expect(webhookTarget(wrong).send(notice)).rejects.toThrow('HTTP 401');
    const noKeyword = loadConfig({ ...env, NOTIFY_LARK_KEYWORD: '' });
    await expect(larkTarget(noKeyword).send(notice)).rejects.toThrow('Key Words Not Found');
  });
});
