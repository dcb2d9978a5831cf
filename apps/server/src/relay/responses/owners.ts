import { createHash } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AppContext } from '../../app-context.js';
import { nowSeconds } from '../../common/time.js';
import type { StoredResponsesTable } from '../../db/schema.js';
import { deleteStoredResponse, findStoredResponse, insertStoredResponses, type FoundResponse } from '../../db/repos/stored-responses.js';

/** OpenAI keeps a stored response 30 days; its owner is remembered as long. */
const PASSTHROUGH_DAYS = 30;
/** How long the shared store bridges the time until a batch reaches the database. */
const BRIDGE_SECONDS = 600;
const bridgeKey = (id: string) => `resp-owner:${id}`;

type Row = Insertable<StoredResponsesTable>;

/** Ownership rows of pass-through responses, written in batches off the request path. */
class OwnerBatch {
  private rows = new Map<string, Row>();
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: AppContext) {
    const timer = setInterval(() => void this.flush(), ctx.config.BATCH_FLUSH_MS);
    timer.unref();
    ctx.onClose.push(async () => {
      clearInterval(timer);
      await this.flush();
    });
  }

  add(row: Row): void {
    this.rows.set(row.id, row);
  }

  forget(id: string): void {
    this.rows.delete(id);
  }

  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (!this.rows.size) return;
      const rows = [...this.rows.values()];
      this.rows = new Map();
      try {
        await insertStoredResponses(this.ctx.db, rows);
      } catch (error) {
        // The bridge entry still answers for a while; after that the id is unknown (a 404), never another user's.
        this.ctx.log.warn({ err: error, rows: rows.length }, 'could not record response owners');
      }
    });
    return this.writing;
  }
}

const batches = new WeakMap<AppContext, OwnerBatch>();
function batchOf(ctx: AppContext): OwnerBatch {
  let batch = batches.get(ctx);
  if (!batch) batches.set(ctx, (batch = new OwnerBatch(ctx)));
  return batch;
}

/** Records who owns an id a channel keeps upstream: a shared-store entry at once (memory, or Redis across nodes), the row in the next batch. */
function ownUpstream(ctx: AppContext, key: string, userId: number, channelId: number, days: number): void {
  const now = nowSeconds();
  void ctx.store.set(bridgeKey(key), `${userId}:${channelId}`, BRIDGE_SECONDS);
  batchOf(ctx).add({ id: key, user_id: userId, channel_id: channelId, model: '', items: '', response: null, created_at: now, expires_at: now + days * 86400 });
}

/** Records who owns a response a channel keeps upstream (unless the request said `store: false`). */
export function ownPassthroughResponse(ctx: AppContext, userId: number, channelId: number, request: Record<string, unknown>, id: unknown): void {
  if (request.store === false || typeof id !== 'string' || !id || id.length > 64) return;
  ownUpstream(ctx, id, userId, channelId, PASSTHROUGH_DAYS);
}

/** Google keeps a stored interaction 55 days (paid tier); its owner is remembered as long. */
const INTERACTION_DAYS = 55;

/**
 * The row key of a Gemini interaction id. Interaction ids are longer than a response id may be,
 * so the row holds a fixed-length digest; the `:` keeps it out of the Responses id space.
 */
export const interactionKey = (id: string) => `ix:${createHash('sha256').update(id).digest('base64url')}`;

/** Records who owns an interaction a Gemini channel keeps (unless the request said `store: false`). */
export function ownInteraction(ctx: AppContext, userId: number, channelId: number, request: Record<string, unknown>, id: unknown): void {
  if (request.store === false || typeof id !== 'string' || !id || id.length > 1024) return;
  ownUpstream(ctx, interactionKey(id), userId, channelId, INTERACTION_DAYS);
}

/** The kept record of a response id: the database row, else a pass-through owner not yet written. */
export async function findResponseOwner(ctx: AppContext, id: string, row?: FoundResponse): Promise<FoundResponse | undefined> {
  const found = row ?? (await findStoredResponse(ctx.db, id));
  if (found) return found;
  const bridged = await ctx.store.get(bridgeKey(id));
  if (!bridged) return undefined;
  const [userId, channelId] = bridged.split(':').map(Number);
  return { user_id: userId, channel_id: channelId, items: '', response: null, expires_at: Number.MAX_SAFE_INTEGER };
}

export async function forgetResponse(ctx: AppContext, id: string): Promise<void> {
  batchOf(ctx).forget(id);
  await ctx.store.del(bridgeKey(id));
  await deleteStoredResponse(ctx.db, id);
}

/** Writes the queued ownership rows now (shutdown does it too; tests use it to reach another node). */
export function flushResponseOwners(ctx: AppContext): Promise<void> {
  return batchOf(ctx).flush();
}
