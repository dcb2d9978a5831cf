import { TELEGRAM_BUILTIN_COMMANDS, type TelegramMenu, type TelegramMenuBody, type TelegramStatus } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { apiError } from '../../common/errors.js';
import {
  deleteTelegramMenu,
  findTelegramMenuByCommand,
  findTelegramMenuById,
  insertTelegramMenu,
  telegramMenuListQuery,
  updateTelegramMenu,
  type TelegramMenuRow,
} from '../../db/repos/telegram-menus.js';
import { botOf } from '../../bot/registry.js';

export function toTelegramMenuJson(row: TelegramMenuRow): TelegramMenu {
  return { id: row.id, command: row.command, description: row.description, parse_mode: row.parse_mode, reply_message: row.reply_message ?? '' };
}

export async function getTelegramMenu(ctx: AppContext, id: number): Promise<TelegramMenu> {
  const row = await findTelegramMenuById(ctx.db, id);
  if (!row) throw apiError(404, 'telegram_menu_not_found');
  return toTelegramMenuJson(row);
}

/** Creates (no id) or updates a menu; answers the original's message for each. */
export async function saveTelegramMenu(ctx: AppContext, body: TelegramMenuBody): Promise<string> {
  const taken = await findTelegramMenuByCommand(ctx.db, body.command);
  if ((TELEGRAM_BUILTIN_COMMANDS as readonly string[]).includes(body.command) || (taken && taken.id !== body.id)) {
    throw apiError(409, 'telegram_command_exists');
  }
  const { id, ...fields } = body;
  if (!id) {
    await insertTelegramMenu(ctx.db, fields);
    await reloadQuietly(ctx);
    return '添加成功';
  }
  if (!(await findTelegramMenuById(ctx.db, id))) throw apiError(404, 'telegram_menu_not_found');
  await updateTelegramMenu(ctx.db, id, fields);
  await reloadQuietly(ctx);
  return '修改成功';
}

export async function removeTelegramMenu(ctx: AppContext, id: number): Promise<void> {
  if (!(await deleteTelegramMenu(ctx.db, id))) throw apiError(404, 'telegram_menu_not_found');
  await reloadQuietly(ctx);
}

/** Every custom menu, for the bot's command table. */
export function allTelegramMenus(ctx: AppContext): Promise<TelegramMenu[]> {
  return telegramMenuListQuery(ctx.db, '').orderBy('id').execute().then((rows) => rows.map(toTelegramMenuJson));
}

export function botStatus(ctx: AppContext): TelegramStatus {
  const bot = botOf(ctx);
  return { status: Boolean(bot?.running()), is_webhook: Boolean(bot?.webhook) };
}

export async function reloadBot(ctx: AppContext): Promise<string> {
  const bot = botOf(ctx);
  if (!bot?.running()) throw apiError(409, 'telegram_disabled');
  await bot.reload();
  return '重载成功';
}

/** Menu edits reach a bot running on this node at once; other nodes' console calls need the reload route. */
async function reloadQuietly(ctx: AppContext): Promise<void> {
  const bot = botOf(ctx);
  if (bot?.running()) await bot.reload().catch((e) => ctx.log.warn({ err: (e as Error).message }, 'telegram menu reload failed'));
}
