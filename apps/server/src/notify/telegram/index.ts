import type { Config } from '../../config/env.js';
import { proxyDispatcher } from '../../bot/client.js';
import { postJson } from '../http.js';
import type { Target } from '../types.js';

/** sendMessage to NOTIFY_TELEGRAM_CHAT_ID with the notification bot (Bot API answer `ok` checked). */
export function telegramTarget(config: Config): Target {
  const dispatcher = proxyDispatcher(config.NOTIFY_TELEGRAM_HTTP_PROXY);
  const url = `${config.TELEGRAM_API_BASE_URL.replace(/\/+$/, '')}/bot${config.NOTIFY_TELEGRAM_BOT_API_KEY}/sendMessage`;
  return {
    name: 'telegram',
    async send(n) {
      // The URL holds the bot token, so errors are reported without it.
      const answer = await postJson(url, { chat_id: config.NOTIFY_TELEGRAM_CHAT_ID, text: `${n.title}\n\n${n.text}` }, {}, dispatcher).catch((e: Error) => {
        throw new Error(e.message.split(config.NOTIFY_TELEGRAM_BOT_API_KEY).join('<token>'));
      });
      if (!answer?.ok) throw new Error(`telegram refused: ${answer?.description ?? 'no answer'}`);
    },
  };
}
