import { z } from 'zod';
import { text } from './format/text.js';

/** api.md §2.14 */
export const TELEGRAM_PARSE_MODES = ['MarkdownV2', 'Markdown', 'html'] as const;
/** Commands the bot answers itself; a custom menu may not take them. */
export const TELEGRAM_BUILTIN_COMMANDS = ['bind', 'unbind', 'balance', 'recharge', 'apikey', 'aff'] as const;

export interface TelegramMenu {
  id: number;
  command: string;
  description: string;
  parse_mode: string;
  reply_message: string;
}

export interface TelegramStatus {
  /** The bot is running. */
  status: boolean;
  is_webhook: boolean;
}

/**
 * POST /api/option/telegram/: create without `id`, update with it. Telegram itself accepts
 * commands of 1-32 lowercase letters, digits and underscores, and descriptions up to 256.
 */
export const TelegramMenuBody = z.object({
  id: z.coerce.number().int().min(0).optional(),
  command: text()
    .trim()
    .transform((c) => c.replace(/^\//, '').toLowerCase())
    .pipe(text().min(1, 'command is required').max(32).regex(/^[a-z0-9_]+$/, 'command: lowercase letters, digits and _ only')),
  description: text().trim().min(1, 'description is required').max(255),
  parse_mode: z.enum(TELEGRAM_PARSE_MODES, { error: 'parse_mode must be MarkdownV2, Markdown or html' }).optional().default('MarkdownV2'),
  reply_message: text().min(1, 'reply_message is required').max(4096),
});
export type TelegramMenuBody = z.infer<typeof TelegramMenuBody>;
