import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { preparedOnce, WriterSqliteDialect } from './sqlite-dialect.js';

function counted() {
  const db = new BetterSqlite3(':memory:');
  let prepares = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => (prepares++, prepare(sql))) as typeof db.prepare;
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)');
  return { db, prepares: () => prepares };
}

describe('the SQLite handle Kysely runs its queries on', () => {
  it('prepares a query text once however often it runs, with other values each time', async () => {
    const { db, prepares } = counted();
    const k = new Kysely<{ t: { id: number; v: number } }>({ dialect: new WriterSqliteDialect({ database: preparedOnce(db) }) });
    for (let i = 1; i <= 20; i++) await k.insertInto('t').values({ id: i, v: i * 10 }).execute();
    for (let i = 1; i <= 20; i++) expect(await k.selectFrom('t').select('v').where('id', '=', i).executeTakeFirst()).toEqual({ v: i * 10 });
    await k.transaction().execute(async (trx) => trx.updateTable('t').set({ v: 0 }).where('id', '=', 1).execute());
    expect(prepares()).toBe(5); // the insert, the select, begin immediate, the update, commit
    await k.destroy();
  });

  it('gives a query of its own while the kept statement is still iterating, and drops the least recently used past the bound', () => {
    const { db, prepares } = counted();
    db.exec('INSERT INTO t VALUES (1, 1), (2, 2)');
    const handle = preparedOnce(db, 2);
    const text = 'SELECT v FROM t ORDER BY id';
    const first = handle.prepare(text);
    const rows = first.iterate([]);
    rows.next();
    const second = handle.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all([])).toEqual([{ v: 1 }, { v: 2 }]);
    rows.return?.();
    expect(handle.prepare(text)).toBe(first);
    handle.prepare('SELECT 1');
    handle.prepare('SELECT 2'); // the bound of two: the select of t goes
    const before = prepares();
    expect(handle.prepare(text)).not.toBe(first);
    expect(prepares()).toBe(before + 1);
  });
});
