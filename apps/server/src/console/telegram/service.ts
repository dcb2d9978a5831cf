import { TELEGRAM_BUILTIN_COMMANDS, type TelegramMenu, type TelegramMenuBody, type TelegramStatus } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { HubError, conflict, notFound } from '../../common/errors.js';
import {
  deleteTelegramMenu,
  findTelegramMenuByCommand,
  findTelegramMenuById,
  insertTelegramMenu,
  updateTelegramMenu,
  type TelegramMenuRow,
} from '../../db/repos/telegram-menus.js';

export function toTelegramMenuJson(row: TelegramMenuRow): TelegramMenu {
  return { id: row.id, command: row.command, description: row.description, parse_mode: row.parse_mode, reply_message: row.reply_message ?? '' };
}

export async function getTelegramMenu(ctx: AppContext, id: number): Promise<TelegramMenu> {
  const row = await findTelegramMenuById(ctx.db, id);
  if (!row) throw notFound('menu not found');
  return toTelegramMenuJson(row);
}

/** Creates (no id) or updates a menu; answers the original's message for each. */
export async function saveTelegramMenu(ctx: AppContext, body: TelegramMenuBody): Promise<string> {
  const taken = await findTelegramMenuByCommand(ctx.db, body.command);
  if ((TELEGRAM_BUILTIN_COMMANDS as readonly string[]).includes(body.command) || (taken && taken.id !== body.id)) {
    throw conflict('command已存在');
  }
  const { id, ...fields } = body;
  if (!id) {
    await insertTelegramMenu(ctx.db, fields);
    return '添加成功';
  }
  if (!(await findTelegramMenuById(ctx.db, id))) throw notFound('menu not found');
  await updateTelegramMenu(ctx.db, id, fields);
  return '修改成功';
}

export async function removeTelegramMenu(ctx: AppContext, id: number): Promise<void> {
  if (!(await deleteTelegramMenu(ctx.db, id))) throw notFound('menu not found');
}

/** The bot itself comes with the Telegram issue; until then it is reported offline. */
export function botStatus(): TelegramStatus {
  return { status: false, is_webhook: false };
}

export function reloadBot(): never {
  throw new HubError(409, 'telegram bot is not enabled', { code: 'telegram_disabled' });
}
