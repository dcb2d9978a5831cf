import type { ExpressionBuilder, Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../schema.js';
import type { Db } from '../index.js';
import type { ChannelsTable } from '../schema.js';
import { likeMatch, likeText } from './like.js';

export type ChannelRow = Selectable<ChannelsTable>;
export type NewChannel = Insertable<ChannelsTable>;

const live = (db: Db) => db.selectFrom('channels').where('deleted_at', 'is', null);

export function findChannelById(db: Db, id: number): Promise<ChannelRow | undefined> {
  return live(db).selectAll().where('id', '=', id).executeTakeFirst();
}

export function listEnabledChannels(db: Db): Promise<ChannelRow[]> {
  return live(db).selectAll().where('status', '=', 1).orderBy('id').execute();
}

export function listChannelsByStatus(db: Db, statuses: number[]): Promise<ChannelRow[]> {
  return live(db).selectAll().where('status', 'in', statuses).orderBy('id').execute();
}

export function listEnabledChannelsOfTypes(db: Db, types: number[]): Promise<ChannelRow[]> {
  return live(db).selectAll().where('status', '=', 1).where('type', 'in', types).orderBy('id').execute();
}

/** Sets one column value on several channels; answers how many changed. */
export async function updateChannelsByIds(db: Db, ids: number[], patch: Updateable<ChannelsTable>): Promise<number> {
  if (!ids.length) return 0;
  const r = await db.updateTable('channels').set(patch).where('id', 'in', ids).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export function listChannelsByIds(db: Db, ids: number[]): Promise<ChannelRow[]> {
  return ids.length ? live(db).selectAll().where('id', 'in', ids).execute() : Promise.resolve([]);
}

export async function insertChannel(db: Db, row: NewChannel): Promise<void> {
  await db.insertInto('channels').values(row).execute();
}

export async function updateChannel(db: Db, id: number, patch: Updateable<ChannelsTable>): Promise<void> {
  await db.updateTable('channels').set(patch).where('id', '=', id).where('deleted_at', 'is', null).execute();
}

export async function softDeleteChannels(db: Db, ids: number[], now: number): Promise<number> {
  if (!ids.length) return 0;
  const result = await db.updateTable('channels').set({ deleted_at: now }).where('id', 'in', ids).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function softDeleteDisabledChannels(db: Db, now: number): Promise<number> {
  const result = await db
    .updateTable('channels')
    .set({ deleted_at: now })
    .where('status', 'in', [2, 3])
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface ChannelFilter {
  type?: number;
  status?: number;
  name?: string;
  group?: string;
  models?: string;
  tag?: string;
  test_model?: string;
  other?: string;
  key?: string;
  filter_tag?: number;
}

export function channelListQuery(db: Db, f: ChannelFilter) {
  let query = live(db).selectAll();
  if (f.type !== undefined) query = query.where('type', '=', f.type);
  if (f.status !== undefined) query = query.where('status', '=', f.status);
  // The name filter also finds a tag by its name (the tag's row stands for all its channels).
  if (f.name) query = query.where((eb) => eb.or([likeMatch('name', `%${likeText(f.name!)}%`), likeMatch('tag', `%${likeText(f.name!)}%`)]));
  if (f.other) query = query.where(likeMatch('other', `${likeText(f.other)}%`));
  if (f.key) query = query.where('key', '=', f.key);
  if (f.models) query = query.where(likeMatch('models', `%${likeText(f.models)}%`));
  if (f.tag) query = query.where('tag', '=', f.tag);
  if (f.test_model) query = query.where(likeMatch('test_model', `${likeText(f.test_model)}%`));
  // A tag is listed once, by its newest channel (the console expands it into a sub-table).
  const representative = (eb: ExpressionBuilder<Database, 'channels'>) =>
    eb.and([
      eb('tag', '!=', ''),
      eb('id', 'in', db.selectFrom('channels').select((e) => e.fn.max('id').as('id')).where('deleted_at', 'is', null).where('tag', '!=', '').groupBy('tag')),
    ]);
  if (f.filter_tag === 1) query = query.where('tag', '=', '');
  else if (f.filter_tag === 2) query = query.where(representative);
  else if (f.filter_tag === 0 && !f.tag) query = query.where((eb) => eb.or([eb('tag', '=', ''), representative(eb)]));
  if (f.group) {
    const g = likeText(f.group);
    query = query.where((eb) => eb.or([eb('group', '=', f.group!), likeMatch('group', `${g},%`), likeMatch('group', `%,${g}`), likeMatch('group', `%,${g},%`)]));
  }
  return query;
}

export const CHANNEL_ORDER_COLUMNS = ['id', 'name', 'group', 'type', 'status', 'response_time', 'balance', 'priority', 'weight'] as const;
