import { timingSafeEqual, createHash } from 'node:crypto';
import type { Bot } from 'grammy';
import type { TelegramMenu } from '@one-hub/contract';
import type { AppContext } from '../app-context.js';
import { allTelegramMenus } from '../console/telegram/service.js';
import { createBot, redact } from './client.js';
import { BUILTIN_COMMANDS, dispatch } from './commands.js';
import { setBot, type HubBot } from './registry.js';
import { TEXTS, langOf } from './texts.js';

/** Equal-length digests, so neither the content nor the length of a guess leaks through timing. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b)) && a.length > 0;
}

/**
 * Starts the Telegram bot of TG_BOT_API_KEY (master node only): long polling, or with
 * TG_WEBHOOK_SECRET the webhook at {ServerAddress}/api/telegram/{key}. Never throws: a bot that
 * cannot reach Telegram is logged and reported as not running.
 */
export async function startBot(ctx: AppContext): Promise<HubBot> {
  const { TG_BOT_API_KEY: token, TG_WEBHOOK_SECRET: secret, TG_HTTP_PROXY: proxy, TELEGRAM_API_BASE_URL: apiRoot } = ctx.config;
  const bot: Bot = createBot(token, apiRoot, proxy);
  let menus = new Map<string, TelegramMenu>();
  let running = false;
  let stopped = false;
  const warn = (error: unknown, what: string) => ctx.log.warn(`${what}: ${redact(String((error as Error)?.message ?? error), token)}`);

  bot.use(async (tg) => dispatch({ ctx, menus: () => menus, username: () => bot.botInfo.username }, tg));
  bot.catch((e) => warn(e.error, 'telegram update failed'));

  const reload = async () => {
    const list = await allTelegramMenus(ctx);
    menus = new Map(list.map((m) => [m.command, m]));
    const t = TEXTS[langOf(ctx.config.LANGUAGE.replace('_', '-'))];
    const builtins = BUILTIN_COMMANDS.filter((c) => !menus.has(c)).map((command) => ({ command, description: t.describe[command] }));
    await bot.api.setMyCommands([...builtins, ...list.map((m) => ({ command: m.command, description: m.description }))]);
  };

  const registerWebhook = async () => {
    const server = ctx.options.get('ServerAddress').replace(/\/+$/, '');
    await bot.api.setWebhook(`${server}/api/telegram/${token}`, { secret_token: secret });
  };
  let wake = () => {};
  // The webhook follows ServerAddress; a change also ends a start-up retry wait early.
  ctx.options.onChange((key) => {
    if (key !== 'ServerAddress' || !secret || stopped) return;
    if (running) void registerWebhook().catch((e) => warn(e, 'telegram webhook registration failed'));
    wake();
  });

  void (async () => {
    // Telegram unreachable (or refusing the webhook) at start-up: try again with backoff until it works or the server stops.
    for (let delay = 1000; !stopped; delay = Math.min(delay * 2, 60_000)) {
      try {
        await bot.init();
        await reload();
        if (secret) await registerWebhook();
        break;
      } catch (e) {
        if ((e as { error_code?: number }).error_code === 401) return warn(e, 'telegram bot token refused');
        warn(e, 'telegram bot start failed, retrying');
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, delay).unref();
        });
      }
    }
    if (stopped) return;
    running = true;
    if (secret) return ctx.log.info(`telegram bot @${bot.botInfo.username} receives updates by webhook`);
    // start() resolves when stopped and rejects on 401/409; its own loop retries everything else.
    void bot
      .start({ onStart: (me) => ctx.log.info(`telegram bot @${me.username} polling`) })
      .catch((e) => warn(e, 'telegram polling stopped'))
      .finally(() => (running = false));
  })();

  const hub: HubBot = {
    webhook: Boolean(secret),
    username: () => (bot.isInited() ? bot.botInfo.username : ''),
    running: () => running,
    reload,
    async send(chatId, text) {
      await bot.api.sendMessage(chatId, text);
    },
    acceptsWebhook(pathToken, header) {
      const tokenOk = sameSecret(pathToken, token);
      const headerOk = sameSecret(header ?? '', secret);
      return running && Boolean(secret) && tokenOk && headerOk;
    },
    async handleWebhook(update) {
      if (!running) return;
      await bot.handleUpdate(update as never).catch((e) => warn(e, 'telegram update failed'));
    },
    async stop() {
      stopped = true;
      running = false;
      if (bot.isRunning()) await bot.stop().catch((e) => warn(e, 'telegram bot stop failed'));
      setBot(ctx, undefined);
    },
  };
  setBot(ctx, hub);
  ctx.onClose.unshift(() => hub.stop());
  return hub;
}
