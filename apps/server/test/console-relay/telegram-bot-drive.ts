import { expect } from 'vitest';
import type { FakeTelegram, SentMessage } from '../fakes/telegram.js';
import type { ConsoleFixture, TestUser } from './setup.js';

/** Sends one message to the bot (by polling or by webhook) and answers the bot's reply to that chat. */
export type Say = (text: string, from: { id: number; language_code?: string }, chat?: { id: number; type: string }) => Promise<SentMessage>;

let nextTelegramId = 5_000_000 + Math.floor(Math.random() * 1_000_000);
export const newTelegramUser = (language_code = 'en') => ({ id: nextTelegramId++, language_code });

/** Waits for the bot's next message to a chat sent after `from` messages. */
export function replyAfter(fake: FakeTelegram, chatId: number, from: number): Promise<SentMessage> {
  return fake.waitForMessage(chatId, () => true, from);
}

/**
 * Every built-in command and a custom menu, as one user's conversation; shared by the polling
 * and the webhook suites so both modes answer the same things.
 */
export async function converse(f: ConsoleFixture, fake: FakeTelegram, say: Say): Promise<void> {
  const user: TestUser = await f.newUser();
  const accessToken: string = (await user.client.get('/api/user/token')).body.data;
  const tg = newTelegramUser('en');

  expect((await say('/start', tg)).text).toMatch(/One Hub bot[\s\S]*\/balance - Balance/);
  expect((await say('/balance', tg)).text).toMatch(/^Link your account first/);
  expect((await say('/bind', tg)).text).toBe('Usage: /bind <access token>');

  const wrong = await say('/bind not-a-token', tg);
  expect(wrong.text).toBe('That access token is not valid.');
  const bound = await say(`/bind ${accessToken}`, tg);
  expect(bound.text).toBe(`Linked to ${user.username}. The message with your token was deleted.`);
  // Both messages that carried a token were deleted from the chat.
  expect(fake.deleted.filter((d) => d.chat_id === tg.id)).toHaveLength(2);
  expect((await user.client.get('/api/user/self')).body.data.telegram_id).toBe(tg.id);
  // The same account from another Telegram user is refused.
  const other = newTelegramUser('en');
  expect((await say(`/bind ${accessToken}`, other)).text).toBe('That account is already linked to another Telegram user.');

  await f.root.post(`/api/user/quota/${user.id}`, { quota: 1_000_000 });
  expect((await say('/balance', tg)).text).toMatch(/^Balance: \$2\.00\nUsed: \$0\.00\nRequests: 0$/);

  const code: string = (await f.root.post('/api/redemption/', { name: 'tg', quota: 500_000, count: 1 })).body.data[0];
  expect((await say(`/recharge ${code}`, tg)).text).toBe('Redeemed: $1.00');
  expect((await say(`/recharge ${code}`, tg)).text).toMatch(/^Redeem failed: /);
  expect((await user.client.get('/api/user/self')).body.data.quota).toBe(1_500_000);

  expect((await say('/apikey', tg)).text).toBe('You have no API keys yet.');
  await user.client.post('/api/token/', { name: 'laptop', remain_quota: 250_000 });
  const key: string = (await user.client.get('/api/token/')).body.data.data[0].key;
  const keys = (await say('/apikey', tg)).text;
  expect(keys).toBe(`Your API keys:\nlaptop: sk-${key.slice(0, 4)}****${key.slice(-4)} (enabled, $0.50 left)`);
  expect(keys).not.toContain(key);

  expect((await say('/aff', tg)).text).toMatch(/^Invitation link: https?:\/\/[^/]+\/register\?aff=\w+\nInvited: 0/);

  // Groups: only /help answers; the rest asks for a private chat.
  const group = { id: -100_000 - tg.id, type: 'supergroup' };
  expect((await say('/apikey', tg, group)).text).toBe('Please use this command in a private chat with the bot.');
  expect((await say(`/help@${fake.username}`, tg, group)).text).toMatch(/^This is the One Hub bot/);
  // A token posted in a group is deleted from it, and nothing is bound.
  expect((await say(`/bind ${accessToken}`, tg, group)).text).toBe('Please use this command in a private chat with the bot.');
  expect(fake.deleted.filter((d) => d.chat_id === group.id)).toHaveLength(1);

  // The user's language, else zh_CN.
  expect((await say('/balance', { id: tg.id, language_code: 'ja' })).text).toMatch(/^残高：\$3\.00/);
  expect((await say('/balance', { id: tg.id, language_code: 'zh-hant' })).text).toMatch(/^餘額：/);
  expect((await say('/balance', { id: tg.id, language_code: 'de' })).text).toMatch(/^余额：/);

  // Custom menus: the reply in its parse mode; markup Telegram refuses goes out as plain text.
  await f.root.post('/api/option/telegram/', { command: 'price', description: 'Prices', parse_mode: 'MarkdownV2', reply_message: '*GPT\\-4o*: 1\\.5' });
  const price = await say('/price', tg);
  expect(price).toMatchObject({ text: '*GPT\\-4o*: 1\\.5', parse_mode: 'MarkdownV2' });
  await f.root.post('/api/option/telegram/', { command: 'broken', description: 'Bad markup', parse_mode: 'html', reply_message: 'a <blink>b</blink> & c' });
  const broken = await say('/broken', tg);
  expect(broken).toEqual(expect.objectContaining({ text: 'a <blink>b</blink> & c', parse_mode: undefined }));
  expect(fake.commands.map((c) => c.command)).toEqual(expect.arrayContaining(['start', 'help', 'bind', 'balance', 'price', 'broken']));

  // Quota units when the site does not display currency.
  await f.root.put('/api/option/', { key: 'DisplayInCurrencyEnabled', value: 'false' });
  expect((await say('/balance', tg)).text).toBe('Balance: 1.5M\nUsed: 0\nRequests: 0');
  await f.root.put('/api/option/', { key: 'DisplayInCurrencyEnabled', value: 'true' });

  expect((await say('/unbind', tg)).text).toBe('Your account is unlinked.');
  expect((await user.client.get('/api/user/self')).body.data.telegram_id).toBe(0);
  expect((await say('/balance', tg)).text).toMatch(/^Link your account first/);
}
