import type { AppContext } from '../../app-context.js';
import { HubError } from '../../common/errors.js';
import { nowSeconds } from '../../common/time.js';
import { findResponseOwner, interactionKey } from '../responses/owners.js';

/** Google's answer for an interaction it does not keep, also for another user's: existence is never revealed. */
export const interactionNotFound = (id: string) => new HubError(404, `Interaction ${id} not found.`, { code: 'NOT_FOUND' });

/** Interaction ids are opaque tokens; anything else cannot be one a channel handed out. */
const ID = /^[A-Za-z0-9_-]{1,1024}$/;

/** The id checked as a path segment or field value (a 400 in Google's shape otherwise). */
export function checkInteractionId(id: string): void {
  if (!ID.test(id)) throw new HubError(400, 'interaction id must be letters, digits, "_" or "-"', { code: 'INVALID_ARGUMENT' });
}

/** The caller's own kept interaction: its channel; an unknown, expired or another user's id is the same 404. */
export async function ownedInteraction(ctx: AppContext, userId: number, id: string): Promise<number> {
  checkInteractionId(id);
  const row = await findResponseOwner(ctx, interactionKey(id));
  if (!row || Number(row.user_id) !== userId || row.expires_at <= nowSeconds() || !row.channel_id) throw interactionNotFound(id);
  return Number(row.channel_id);
}

/**
 * The channel a follow-up naming `previous_interaction_id` must go to: the one keeping it.
 * An id the gateway never saw goes wherever the model is served (upstream answers for it);
 * another user's is a 404, as an unknown id is upstream.
 */
export async function loadPreviousInteraction(ctx: AppContext, userId: number, id: unknown): Promise<{ ownerChannel?: number }> {
  if (typeof id !== 'string' || !id) return {};
  checkInteractionId(id);
  const row = await findResponseOwner(ctx, interactionKey(id));
  if (!row || row.expires_at <= nowSeconds() || !row.channel_id) return {};
  if (Number(row.user_id) !== userId) throw interactionNotFound(id);
  return { ownerChannel: Number(row.channel_id) };
}
