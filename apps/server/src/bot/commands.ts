import { GrammyError, type Context } from 'grammy';
import { formatQuota, type TelegramMenu } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { HubError } from '../common/errors.js';
import { bindTelegram, inviteInfo, telegramAccount, unbindTelegram, userTokens } from '../console/user/telegram-service.js';
import { redeem } from '../console/user/self-service.js';
import { withUserBalance } from '../console/user/balance.js';
import type { UserRow } from '../db/repos/users.js';
import { textsFor, type Texts } from './texts.js';

export const BUILTIN_COMMANDS = ['start', 'help', 'bind', 'unbind', 'balance', 'recharge', 'apikey', 'aff'] as const;
type Builtin = (typeof BUILTIN_COMMANDS)[number];

/** What a command handler needs besides the Telegram update. */
export interface CommandEnv {
  ctx: AppContext;
  menus(): Map<string, TelegramMenu>;
  username(): string;
}

interface Call {
  env: CommandEnv;
  tg: Context;
  t: Texts;
  args: string[];
  telegramId: number;
}

type Handler = (c: Call, user: UserRow) => Promise<string>;

/** Answers one message: a custom menu, a built-in command, or nothing (not a command, or another bot's). */
export async function dispatch(env: CommandEnv, tg: Context): Promise<void> {
  const msg = tg.message;
  if (!msg?.text?.startsWith('/') || !msg.from?.id || !msg.chat?.id) return;
  const [head, ...args] = msg.text.trim().split(/\s+/);
  const [name, addressee] = head.slice(1).split('@');
  if (addressee && addressee.toLowerCase() !== env.username().toLowerCase()) return;
  const command = name.toLowerCase();
  const t = textsFor(msg.from.language_code);
  const menu = env.menus().get(command);
  if (menu) return replyMarkup(tg, menu);
  if (!(BUILTIN_COMMANDS as readonly string[]).includes(command)) return;
  // The token is gone from the chat before anything else, whatever the outcome of the bind.
  if (command === 'bind' && args.length) await tg.deleteMessage().catch(() => undefined);
  if (msg.chat.type !== 'private' && command !== 'help') {
    await tg.reply(t.privateOnly);
    return;
  }
  const call: Call = { env, tg, t, args, telegramId: msg.from.id };
  await tg.reply(await run(call, command as Builtin));
}

async function run(c: Call, command: Builtin): Promise<string> {
  try {
    if (command === 'start' || command === 'help') return help(c);
    if (command === 'bind') return await bind(c);
    const user = await telegramAccount(c.env.ctx, c.telegramId);
    if (!user) return c.t.needBind;
    return await BOUND[command](c, user);
  } catch (error) {
    if (error instanceof HubError && error.status < 500) return c.t.rechargeFailed(error.message);
    c.env.ctx.log.error({ err: (error as Error).message, command }, 'telegram command failed');
    return c.t.failed;
  }
}

function help(c: Call): string {
  const lines = BUILTIN_COMMANDS.map((cmd) => `/${cmd} - ${c.t.describe[cmd]}`);
  for (const m of c.env.menus().values()) lines.push(`/${m.command} - ${m.description}`);
  return `${c.t.intro}\n\n${c.t.commandsTitle}\n${lines.join('\n')}`;
}

async function bind(c: Call): Promise<string> {
  if (!c.args[0]) return c.t.bindUsage;
  try {
    const user = await bindTelegram(c.env.ctx, c.args[0], c.telegramId);
    return c.t.bindOk(user.username);
  } catch (error) {
    const code = error instanceof HubError ? error.code : null;
    if (code === 'invalid_token') return c.t.bindInvalid;
    if (code === 'bound_elsewhere') return c.t.bindElsewhere;
    if (code === 'telegram_taken') return c.t.telegramTaken;
    throw error;
  }
}

const display = (ctx: AppContext) => ({ quotaPerUnit: ctx.options.get('QuotaPerUnit'), displayInCurrency: ctx.options.get('DisplayInCurrencyEnabled') });

/** `sk-` + the first and last four characters; the rest never leaves the server. */
export const maskKey = (key: string) => `sk-${key.slice(0, 4)}****${key.slice(-4)}`;

const BOUND: Record<Exclude<Builtin, 'start' | 'help' | 'bind'>, Handler> = {
  async unbind(c, user) {
    await unbindTelegram(c.env.ctx, user);
    return c.t.unbindOk;
  },
  async balance(c, user) {
    const d = display(c.env.ctx);
    const shown = await withUserBalance(c.env.ctx, user);
    return c.t.balance({ quota: formatQuota(shown.quota, d), used: formatQuota(user.used_quota, d), requests: user.request_count });
  },
  async recharge(c, user) {
    if (!c.args[0]) return c.t.rechargeUsage;
    const added = await redeem(c.env.ctx, user, c.args[0], '');
    return c.t.rechargeOk(formatQuota(added, display(c.env.ctx)));
  },
  async apikey(c, user) {
    const tokens = await userTokens(c.env.ctx, user);
    if (!tokens.length) return c.t.noTokens;
    const d = display(c.env.ctx);
    const lines = tokens.map((k) =>
      c.t.token(k.name, maskKey(k.key), c.t.tokenStatus[k.status] ?? String(k.status), k.unlimited_quota ? c.t.unlimited : formatQuota(k.remain_quota, d)),
    );
    return `${c.t.tokensTitle}\n${lines.join('\n')}`;
  },
  async aff(c, user) {
    const info = await inviteInfo(c.env.ctx, user);
    const d = display(c.env.ctx);
    return c.t.aff(info.link, info.count, formatQuota(info.quota, d), formatQuota(info.history, d));
  },
};

/** A custom menu's reply in its parse mode; markup Telegram refuses goes out again as plain text. */
async function replyMarkup(tg: Context, menu: TelegramMenu): Promise<void> {
  const parse_mode = menu.parse_mode.toLowerCase() === 'html' ? 'HTML' : (menu.parse_mode as 'MarkdownV2' | 'Markdown');
  try {
    await tg.reply(menu.reply_message, { parse_mode });
  } catch (error) {
    if (!(error instanceof GrammyError) || error.error_code !== 400 || !/can't parse entities/i.test(error.description)) throw error;
    await tg.reply(menu.reply_message);
  }
}
