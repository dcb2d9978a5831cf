import {
  OPTION_DEFS,
  isOptionKey,
  readOptionText,
  type OptionKey,
  type OptionValue,
} from '@one-hub/contract';
import type { Db } from '../../db/index.js';
import type { SharedStore } from '../../cache/shared-store.js';
import { EVENTS } from '../../cache/events.js';

const CHANNEL = EVENTS.options;

/**
 * Options held in memory (defaults overlaid by the table). A save writes the
 * row, then tells every node to reload, so all nodes agree within a moment.
 */
export class OptionStore {
  private text = new Map<string, string>();
  private listeners = new Set<(key: string) => void>();

  constructor(
    private readonly db: Db,
    private readonly store: SharedStore,
  ) {
    for (const [key, def] of Object.entries(OPTION_DEFS)) this.text.set(key, def.default);
    store.subscribe(CHANNEL, () => this.load());
  }

  /** Replaces a key's built-in default before the table is read (ServerAddress follows the real port). */
  setDefault(key: OptionKey, value: string): void {
    this.text.set(key, value);
  }

  async load(): Promise<void> {
    const rows = await this.db.selectFrom('options').select(['key', 'value']).execute();
    for (const row of rows) this.text.set(row.key, row.value ?? '');
    for (const l of this.listeners) l('*');
  }

  get<K extends OptionKey>(key: K): OptionValue<K> {
    return readOptionText(key, this.text.get(key) ?? OPTION_DEFS[key].default);
  }

  /** Raw text of any key, registered or not. */
  raw(key: string): string {
    return this.text.get(key) ?? '';
  }

  /** Every registered key with its current text. */
  entries(): Array<[OptionKey, string]> {
    return (Object.keys(OPTION_DEFS) as OptionKey[]).map((k) => [k, this.raw(k)]);
  }

  onChange(listener: (key: string) => void): void {
    this.listeners.add(listener);
  }

  /** Persists values (already validated by the caller) and notifies all nodes. */
  async save(values: Record<string, string>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(values)) {
        const updated = await trx.updateTable('options').set({ value }).where('key', '=', key).executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) await trx.insertInto('options').values({ key, value }).execute();
      }
    });
    for (const [key, value] of Object.entries(values)) {
      this.text.set(key, value);
      if (isOptionKey(key)) for (const l of this.listeners) l(key);
    }
    await this.store.publish(CHANNEL, Object.keys(values).join(','));
  }
}
