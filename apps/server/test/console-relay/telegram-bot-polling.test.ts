import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness.js';
import { FakeTelegram } from '../fakes/telegram.js';
import { startHttpProxy, type FakeProxy } from '../fakes/proxies.js';
import { consoleFixture, type ConsoleFixture } from './setup.js';
import { converse, newTelegramUser, replyAfter, type Say } from './telegram-bot-drive.js';

const TOKEN = '123456789:AAHpollingTestToken_x-y';

/** The bot in long-polling mode against a fake Bot API server (SQLite: the bot's logic is dialect-free; the webhook suite runs every dialect). */
describe('telegram bot by long polling', () => {
  const fake = new FakeTelegram(TOKEN);
  let f: ConsoleFixture;
  let proxy: FakeProxy;
  const logText = () => f.server.ctx.recentLogs.last(500).map((l) => l.Message).join('\n');

  const say: Say = async (text, from, chat) => {
    const before = fake.sent.length;
    fake.feed(fake.message(text, from, chat));
    return replyAfter(fake, chat?.id ?? from.id, before);
  };

  beforeAll(async () => {
    await fake.start();
    proxy = await startHttpProxy();
    f = await consoleFixture('sqlite', { env: { TG_BOT_API_KEY: TOKEN, TELEGRAM_API_BASE_URL: fake.url, TG_HTTP_PROXY: proxy.url } });
    while (!fake.calls('getUpdates').length) await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(async () => {
    await f?.close();
    await fake.close();
    await proxy?.close();
  });

  it('starts polling through TG_HTTP_PROXY: deletes any webhook, registers the commands and reports itself running', async () => {
    expect(proxy.tunnels).toContain(new URL(fake.url).host);
    expect(fake.calls('deleteWebhook').length).toBeGreaterThan(0);
    expect(fake.commands.map((c) => c.command)).toEqual(['start', 'help', 'bind', 'unbind', 'balance', 'recharge', 'apikey', 'aff']);
    expect(fake.commands[0].description).toBe('开始使用');
    expect((await f.root.get('/api/option/telegram/status')).body.data).toEqual({ status: true, is_webhook: false });
    expect((await f.root.get('/api/status')).body.data.telegram_bot).toBe(fake.username);
    // No webhook in polling mode: the route is a plain 404.
    const res = await f.server.app.inject({ method: 'POST', url: `/api/telegram/${TOKEN}`, payload: {} });
    expect(res.statusCode).toBe(404);
  });

  it('answers every built-in command and custom menus', async () => {
    await converse(f, fake, say);
  });

  it('reload re-registers the command list with menu changes', async () => {
    await f.server.ctx.db.insertInto('telegram_menus').values({ command: 'faq', description: 'FAQ', parse_mode: 'Markdown', reply_message: '*see* the site' }).execute();
    expect(fake.commands.map((c) => c.command)).not.toContain('faq');
    expect((await f.root.put('/api/option/telegram/reload')).body).toEqual({ success: true, message: '重载成功' });
    expect(fake.commands).toContainEqual({ command: 'faq', description: 'FAQ' });
    expect((await say('/faq', newTelegramUser())).text).toBe('*see* the site');
  });

  it('survives 429s, failed polls and malformed updates', async () => {
    fake.failNext('sendMessage', 429, 'Too Many Requests: retry after 1', 1, 1);
    const started = Date.now();
    const tg = newTelegramUser();
    expect((await say('/help', tg)).text).toMatch(/^This is the One Hub bot/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // waited retry_after
    expect(fake.calls('sendMessage').length).toBeGreaterThanOrEqual(2);

    // Failed polls: dropped connections and 5xx retried after 0.2, 0.4, 0.8 s, then a 429's retry_after.
    fake.failNext('getUpdates', 0, 'dropped', 2);
    fake.failNext('getUpdates', 502, 'Bad Gateway', 1);
    fake.failNext('getUpdates', 429, 'Too Many Requests: retry after 1', 1, 1);
    fake.feed({ message: { message_id: 1, text: '/help' } }); // ends the pending poll; no chat, no sender
    while (fake.faultsLeft()) await new Promise((r) => setTimeout(r, 10));
    fake.feed({ edited_message: { nonsense: true } });
    fake.feed({ message: { message_id: 2, date: 0, chat: { id: tg.id, type: 'private' }, from: { id: tg.id }, text: null } });
    expect((await say('/help', tg)).text).toMatch(/^This is the One Hub bot/);
    expect(fake.faultsLeft()).toBe(0);
  });

  it('runs no bot on a slave node', async () => {
    const other = new FakeTelegram(TOKEN);
    await other.start();
    const slave = await startTestServer('sqlite', { env: { NODE_TYPE: 'slave', TG_BOT_API_KEY: TOKEN, TELEGRAM_API_BASE_URL: other.url } });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(other.received).toHaveLength(0);
      expect(JSON.parse((await slave.app.inject({ method: 'GET', url: '/api/status' })).body).data.telegram_bot).toBe('');
    } finally {
      await slave.destroy();
      await other.close();
    }
  });

  it('never writes the bot token to the log and stops polling on shutdown', async () => {
    fake.failNext('sendMessage', 400, 'Bad Request: chat not found');
    await f.root.post('/api/option/telegram/', { command: 'lost', description: 'x', parse_mode: 'Markdown', reply_message: 'x' });
    const tg = newTelegramUser();
    fake.feed(fake.message('/lost', tg));
    while (!logText().includes('chat not found')) await new Promise((r) => setTimeout(r, 10));
    expect(logText()).toContain('telegram update failed');
    expect(logText()).not.toContain(TOKEN.split(':')[1]);

    await f.server.close();
    const polls = fake.calls('getUpdates').length;
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.calls('getUpdates').length).toBe(polls);
  });
});
