import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index.js';
import type { McpServersTable } from '../schema.js';
import { insertReturningId } from '../helpers.js';

export type McpServerRow = Selectable<McpServersTable>;

export function mcpServerListQuery(db: Db) {
  return db.selectFrom('mcp_servers').selectAll();
}

export const MCP_SERVER_ORDER_COLUMNS = ['id', 'name', 'created_time', 'last_refresh_time', 'price'] as const;

export function listMcpServers(db: Db): Promise<McpServerRow[]> {
  return db.selectFrom('mcp_servers').selectAll().orderBy('id').execute();
}

export function findMcpServerById(db: Db, id: number): Promise<McpServerRow | undefined> {
  return db.selectFrom('mcp_servers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findMcpServerByName(db: Db, name: string): Promise<McpServerRow | undefined> {
  return db.selectFrom('mcp_servers').selectAll().where('name', '=', name).executeTakeFirst();
}

export function insertMcpServer(db: Db, row: Insertable<McpServersTable>): Promise<number> {
  return insertReturningId(db, 'mcp_servers', row);
}

export async function updateMcpServer(db: Db, id: number, patch: Updateable<McpServersTable>): Promise<void> {
  await db.updateTable('mcp_servers').set(patch).where('id', '=', id).execute();
}

export async function deleteMcpServer(db: Db, id: number): Promise<boolean> {
  const res = await db.deleteFrom('mcp_servers').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
