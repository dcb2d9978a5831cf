import type { AppContext } from '../app-context.js';

/** What the console and the notifiers may ask of the running bot. */
export interface HubBot {
  readonly webhook: boolean;
  /** The bot's @username once Telegram confirmed the token, else ''. */
  username(): string;
  running(): boolean;
  /** Re-reads the custom menus and registers the command list with Telegram. */
  reload(): Promise<void>;
  /** Plain text to a chat, with Telegram's rate limits honoured. */
  send(chatId: number | string, text: string): Promise<void>;
  /** True when both the path token and the secret header are this bot's (constant time). */
  acceptsWebhook(pathToken: string, secretHeader: string | undefined): boolean;
  handleWebhook(update: unknown): Promise<void>;
  stop(): Promise<void>;
}

const bots = new WeakMap<AppContext, HubBot>();

export const botOf = (ctx: AppContext): HubBot | undefined => bots.get(ctx);

export function setBot(ctx: AppContext, bot: HubBot | undefined): void {
  if (bot) bots.set(ctx, bot);
  else bots.delete(ctx);
}
