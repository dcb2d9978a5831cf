import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { FakeTelegram } from '../fakes/telegram.js';
import { consoleFixture, type ConsoleFixture } from './setup.js';
import { converse, newTelegramUser, type Say } from './telegram-bot-drive.js';

const TOKEN = '987654321:AAHwebhookTestToken-z';
const SECRET = 'hook-Secret_42';

describe.each(testDialects())('telegram bot by webhook on %s', (dialect) => {
  const fake = new FakeTelegram(TOKEN);
  let f: ConsoleFixture;

  const post = (update: unknown, token = TOKEN, headers: Record<string, string> = { 'x-telegram-bot-api-secret-token': SECRET }) =>
    f.server.app.inject({ method: 'POST', url: `/api/telegram/${token}`, headers, payload: update as object });

  const say: Say = async (text, from, chat) => {
    const before = fake.sent.length;
    const res = await post(fake.stamp(fake.message(text, from, chat)));
    expect(res.statusCode).toBe(200);
    // The update is handled before Telegram gets its 200, so the reply is already out.
    return fake.sent.slice(before).find((m) => m.chat_id === (chat?.id ?? from.id))!;
  };

  beforeAll(async () => {
    await fake.start();
    f = await consoleFixture(dialect, { env: { TG_BOT_API_KEY: TOKEN, TG_WEBHOOK_SECRET: SECRET, TELEGRAM_API_BASE_URL: fake.url } });
    // Telegram refuses the default http:// ServerAddress; setting an https one registers the webhook.
    while (!fake.calls('setWebhook').length) await new Promise((r) => setTimeout(r, 10));
    expect(fake.webhook).toBeNull();
    await f.root.put('/api/option/', { key: 'ServerAddress', value: 'https://hub.example.com/' });
    while (!(await f.root.get('/api/option/telegram/status')).body.data.status) await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(async () => {
    await f?.close();
    await fake.close();
  });

  it('registers the webhook with the secret token and reports itself', async () => {
    expect(fake.webhook).toEqual({ url: `https://hub.example.com/api/telegram/${TOKEN}`, secret_token: SECRET });
    expect(fake.calls('getUpdates')).toHaveLength(0);
    expect((await f.root.get('/api/option/telegram/status')).body.data).toEqual({ status: true, is_webhook: true });
  });

  it('answers every built-in command and custom menus', async () => {
    await converse(f, fake, say);
  });

  it('refuses a wrong path token or secret header with a plain 404 that reaches no handler', async () => {
    const update = fake.stamp(fake.message('/help', newTelegramUser()));
    const before = fake.sent.length;
    const refused = [
      await post(update, `${TOKEN}x`),
      await post(update, '987654321:AAHwebhookTestToken-y'),
      await post(update, TOKEN, { 'x-telegram-bot-api-secret-token': `${SECRET}x` }),
      await post(update, TOKEN, {}),
      await f.server.app.inject({ method: 'POST', url: '/api/telegram/nope', headers: { 'content-type': 'application/json' }, payload: '{broken' }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('Page not found');
    }
    expect(fake.sent.length).toBe(before);
    // A malformed update with the right credentials is acknowledged and dropped; the bot keeps answering.
    expect((await post({ nothing: true })).statusCode).toBe(200);
    expect((await post({ update_id: 1, message: { text: '/help' } })).statusCode).toBe(200);
    expect((await say('/help', newTelegramUser())).text).toMatch(/^This is the One Hub bot/);
  });

  it('credits a redemption code once under 10 concurrent updates', async () => {
    const user = await f.newUser();
    const accessToken: string = (await user.client.get('/api/user/token')).body.data;
    const tg = newTelegramUser();
    await say(`/bind ${accessToken}`, tg);
    const code: string = (await f.root.post('/api/redemption/', { name: 'race', quota: 300_000, count: 1 })).body.data[0];
    const before = fake.sent.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(fake.stamp(fake.message(`/recharge ${code}`, tg)))));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const replies = fake.sent.slice(before).map((m) => m.text);
    expect(replies).toHaveLength(10);
    expect(replies.filter((t) => t === 'Redeemed: $0.60')).toHaveLength(1);
    expect(replies.filter((t) => t.startsWith('Redeem failed: '))).toHaveLength(9);
    expect((await user.client.get('/api/user/self')).body.data.quota).toBe(300_000);
    const logs = (await user.client.get('/api/log/self/?log_type=1')).body.data.data;
    expect(logs).toHaveLength(1);
  });
});
