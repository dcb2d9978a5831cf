import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, testDialects } from '../harness.js';
import { checkQuotaAlerts } from '../../src/notify/user-alerts.js';
import { FakeSmtp } from '../accounts/fake-smtp.js';
import { FakeTelegram } from '../fakes/telegram.js';
import { consoleFixture, type ConsoleFixture, type TestUser } from './setup.js';

const TOKEN = '424242424:AAHalertsBotToken';

/** Users' own low-balance alerts: once per crossing, by e-mail or the bound Telegram. */
describe.each(testDialects())('quota alerts on %s', (dialect) => {
  const smtp = new FakeSmtp();
  const telegram = new FakeTelegram(TOKEN);
  let f: ConsoleFixture;
  let user: TestUser;
  // The round runs on a timer in production; the test drives it so every round is observable.
  const round = () => checkQuotaAlerts(f.server.ctx);
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.some((t) => t.includes(address))).length;
  /** The text of the last mail to an address (nodemailer base64-encodes mostly non-ASCII bodies). */
  const lastMail = (address: string) => {
    const data = [...smtp.mails].reverse().find((m) => m.to.some((t) => t.includes(address)))?.data ?? '';
    const b64 = data.match(/Content-Transfer-Encoding: base64\n[\s\S]*?\n\n([A-Za-z0-9+/=\n]+)/)?.[1] ?? '';
    return Buffer.from(b64.replace(/\n/g, ''), 'base64').toString('utf8') || data;
  };
  const addQuota = async (quota: number) => expect((await f.root.post(`/api/user/quota/${user.id}`, { quota })).body.success).toBe(true);

  beforeAll(async () => {
    const port = await smtp.start();
    await telegram.start();
    f = await consoleFixture(dialect, { env: { TG_BOT_API_KEY: TOKEN, TELEGRAM_API_BASE_URL: telegram.url, USER_ALERT_INTERVAL_SECONDS: '3600' } });
    for (const [key, value] of [
      ['SMTPServer', '127.0.0.1'],
      ['SMTPPort', String(port)],
      ['SMTPFrom', 'hub@example.com'],
    ]) {
      await f.root.put('/api/option/', { key, value });
    }
    user = await f.newUser();
    await f.root.put('/api/user/', { id: user.id, username: user.username, email: `${user.username}@example.com` });
  });
  afterAll(async () => {
    await f?.close();
    await telegram.close();
    await smtp.close();
  });

  it('validates the setting', async () => {
    expect((await user.client.get('/api/user/alert')).body.data).toEqual({ threshold: 0, channel: '' });
    const bad = async (body: object) => (await user.client.put('/api/user/alert', body)).body;
    expect(await bad({ threshold: -1, channel: 'email' })).toMatchObject({ success: false, message: expect.stringMatching(/^threshold:/) });
    expect(await bad({ threshold: 10, channel: 'sms' })).toMatchObject({ success: false, message: expect.stringMatching(/^channel:/) });
    expect((await user.client.put('/api/user/alert', { threshold: 10, channel: 'telegram' })).status).toBe(400);
    expect((await new ApiClient(f.server.app).get('/api/user/alert')).status).toBe(401);
  });

  it('mails once per crossing below the threshold', async () => {
    const address = `${user.username}@example.com`;
    expect((await user.client.put('/api/user/alert', { threshold: 500_000, channel: 'email' })).body.success).toBe(true);
    expect((await user.client.get('/api/user/alert')).body.data).toEqual({ threshold: 500_000, channel: 'email' });

    await round(); // balance 0 is below: told once
    await round();
    expect(mailsTo(address)).toBe(1);
    expect(lastMail(address)).toBe('<p>你的余额 $0.00 已低于提醒阈值 $1.00，请及时充值。</p>');

    await addQuota(1_000_000); // back above: re-armed, nothing sent
    await round();
    expect(mailsTo(address)).toBe(1);
    await addQuota(-900_000); // 100,000: the second crossing
    await round();
    await round();
    expect(mailsTo(address)).toBe(2);
    expect(lastMail(address)).toContain('你的余额 $0.20 已低于提醒阈值 $1.00');
  });

  it('sends to the bound Telegram account, and retries a failed send on the next round', async () => {
    while (!(await f.root.get('/api/option/telegram/status')).body.data.status) await new Promise((r) => setTimeout(r, 10));
    const accessToken: string = (await user.client.get('/api/user/token')).body.data;
    const tg = { id: 880_000 + Math.floor(Math.random() * 1000), language_code: 'en' };
    const before = telegram.sent.length;
    telegram.feed(telegram.message(`/bind ${accessToken}`, tg));
    await telegram.waitForMessage(tg.id, (m) => m.text.startsWith('Linked'), before);

    expect((await user.client.put('/api/user/alert', { threshold: 300_000, channel: 'telegram' })).body.success).toBe(true);
    telegram.failNext('sendMessage', 400, 'Bad Request: chat not found');
    const sentBefore = telegram.sent.length;
    await round(); // refused by Telegram: stays due
    expect(telegram.sent.length).toBe(sentBefore);
    await round();
    await round();
    const alerts = telegram.sent.slice(sentBefore).filter((m) => m.chat_id === tg.id);
    expect(alerts.map((m) => m.text)).toEqual(['你的余额 $0.20 已低于提醒阈值 $0.60，请及时充值。']);
  });
});
