import { hash } from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';

/**
 * Encrypted reasoning and compaction items (`encrypted_content`) can be read only by the upstream
 * account that produced them: a stateless follow-up (`store: false`, the whole history in `input`)
 * carrying them must reach the channel that answered them, as a `previous_response_id` does. Each
 * such content is remembered by a short digest, per user, for as long as responses are kept.
 */
const keyOf = (userId: number, digest: string) => `sealed:${userId}:${digest}`;

/** 128 bits of the content's SHA-256: the content itself is never kept. */
const digestOf = (content: string) => hash('sha256', content, 'base64url').slice(0, 22);

type Item = { encrypted_content?: unknown; id?: unknown; type?: unknown };

const sealedContent = (item: unknown): string | undefined => {
  const content = item && typeof item === 'object' ? (item as Item).encrypted_content : undefined;
  return typeof content === 'string' && content ? content : undefined;
};

/** Collects what a list of output items seals (nothing is allocated when none does). */
export class SealedItems {
  private digests?: Set<string>;

  /** One output item (a stream's `response.output_item.done`). */
  add(item: unknown): void {
    const content = sealedContent(item);
    if (content) (this.digests ??= new Set()).add(digestOf(content));
  }

  /** Every item of a response's `output`. */
  addAll(output: unknown): void {
    if (Array.isArray(output)) for (const item of output) this.add(item);
  }

  /** Remembers the items for the user on the channel: one shared-store write, not awaited. */
  remember(ctx: AppContext, userId: number, channelId: number): void {
    if (!this.digests) return;
    const ttl = Math.max(1, ctx.options.get('ResponsesRetentionHours')) * 3600;
    const entries = [...this.digests].map((d): [string, string] => [keyOf(userId, d), String(channelId)]);
    this.digests = undefined;
    void ctx.store.setMany(entries, ttl).catch((e) => ctx.log.warn({ err: e }, 'could not remember encrypted items'));
  }
}

/** Remembers the sealed items of a complete answer's `output` (JSON answers, compactions). */
export function rememberSealedOutput(ctx: AppContext, userId: number, channelId: number, output: unknown): void {
  if (!Array.isArray(output) || !output.some(sealedContent)) return;
  const items = new SealedItems();
  items.addAll(output);
  items.remember(ctx, userId, channelId);
}

/** What the request's encrypted items say about routing: the channel that produced them, and one of them to name. */
export interface SealedOwner {
  channel?: number;
  item?: string;
}

const itemName = (item: Item, index: number) => (typeof item.id === 'string' && item.id ? item.id : `input[${index}] (${String(item.type ?? 'item')})`);

/**
 * The channel that produced the encrypted items of `input`, when the gateway remembers it for this
 * user: one batched read, made only when such items are present. Items of different channels
 * cannot be read by any one upstream: a 400 saying so. Unknown items (expired, or produced
 * outside the gateway, or by another user) say nothing.
 */
export async function sealedOwner(ctx: AppContext, userId: number, input: unknown): Promise<SealedOwner> {
  if (!Array.isArray(input)) return {};
  const names = new Map<string, string>();
  input.forEach((item, index) => {
    const content = sealedContent(item);
    if (!content) return;
    const digest = digestOf(content);
    if (!names.has(digest)) names.set(digest, itemName(item as Item, index));
  });
  if (!names.size) return {};
  const digests = [...names.keys()];
  const found = await ctx.store.getMany(digests.map((d) => keyOf(userId, d)));
  let owner: SealedOwner = {};
  found.forEach((value, i) => {
    if (!value) return;
    const channel = Number(value);
    const item = names.get(digests[i])!;
    if (owner.channel === undefined) owner = { channel, item };
    else if (owner.channel !== channel) throw mixedItems(owner.item!, item);
  });
  return owner;
}

const mixedItems = (a: string, b: string) =>
  new HubError(400, `input items ${a} and ${b} carry encrypted content produced by different channels of this gateway, and no upstream can read both: drop the encrypted reasoning and compaction items of one of them (or send a fresh conversation)`, {
    type: 'invalid_request_error',
    code: 'mixed_encrypted_content',
  });
