import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { TelegramMenusTable } from '../schema.js';
import { likeMatch, likeText } from './like.js';

export type TelegramMenuRow = Selectable<TelegramMenusTable>;

export function findTelegramMenuById(db: Db, id: number): Promise<TelegramMenuRow | undefined> {
  return db.selectFrom('telegram_menus').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findTelegramMenuByCommand(db: Db, command: string): Promise<TelegramMenuRow | undefined> {
  return db.selectFrom('telegram_menus').selectAll().where('command', '=', command).executeTakeFirst();
}

export async function insertTelegramMenu(db: Db, row: Insertable<TelegramMenusTable>): Promise<void> {
  await db.insertInto('telegram_menus').values(row).execute();
}

export async function updateTelegramMenu(db: Db, id: number, patch: Updateable<TelegramMenusTable>): Promise<void> {
  await db.updateTable('telegram_menus').set(patch).where('id', '=', id).execute();
}

export async function deleteTelegramMenu(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('telegram_menus').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Keyword: the id when numeric, or a command prefix (api.md §10.4). */
export function telegramMenuListQuery(db: Db, keyword: string) {
  let query = db.selectFrom('telegram_menus').selectAll();
  const word = keyword.trim().replace(/^\//, '');
  if (word) {
    query = query.where((eb) => {
      const ors = [likeMatch('command', `${likeText(word)}%`)];
      if (/^\d+$/.test(word)) ors.push(eb('id', '=', Number(word)));
      return eb.or(ors);
    });
  }
  return query;
}

export const TELEGRAM_MENU_ORDER_COLUMNS = ['id', 'command', 'description', 'parse_mode', 'reply_message'] as const;
