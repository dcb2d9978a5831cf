import type { Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { ChannelsTable } from '../schema.js';
import type { ChannelRow, NewChannel } from './channels.js';

// Tags have no table of their own: a tag is the set of live channels carrying it.
const tagged = (db: Db, tag: string) => db.selectFrom('channels').where('deleted_at', 'is', null).where('tag', '=', tag);

export async function listTagNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('channels').select('tag').distinct().where('deleted_at', 'is', null).where('tag', '!=', '').orderBy('tag').execute();
  return rows.map((r) => r.tag);
}

export function listTagChannels(db: Db, tag: string): Promise<ChannelRow[]> {
  return tagged(db, tag).selectAll().orderBy('id').execute();
}

/** Writes the same columns on every channel of the tag; answers how many changed. */
export async function updateTagChannels(db: Db, tag: string, patch: Updateable<ChannelsTable>, onlyStatuses?: number[]): Promise<number> {
  let q = db.updateTable('channels').set(patch).where('deleted_at', 'is', null).where('tag', '=', tag);
  if (onlyStatuses) q = q.where('status', 'in', onlyStatuses);
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

export function softDeleteTagChannels(db: Db, tag: string, now: number, onlyStatuses?: number[]): Promise<number> {
  return updateTagChannels(db, tag, { deleted_at: now }, onlyStatuses);
}

export async function insertTagChannel(db: Db, row: NewChannel): Promise<void> {
  await db.insertInto('channels').values(row).execute();
}

/** Takes one channel out of its tag; answers false when the channel does not exist. */
export async function clearChannelTag(db: Db, id: number): Promise<boolean> {
  const r = await db.updateTable('channels').set({ tag: '' }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
