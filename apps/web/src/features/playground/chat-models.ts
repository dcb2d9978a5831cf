import { withKeyPrefix, type AvailableModel } from '@one-hub/contract';
import { ApiError } from '../../lib/api';

/**
 * Whether a model answers chat, by how it is billed: per-call prices (`times`) belong to task and
 * image tools (Midjourney, DALL·E, Suno…), and token prices without an output price to models that
 * write no completion tokens (embeddings, moderation, speech). A model without price info is kept.
 */
export function isChatModel(info: AvailableModel | undefined): boolean {
  if (!info) return true;
  return info.price.type === 'tokens' && info.price.output > 0;
}

/** The models a token may call, as the gateway itself lists them for it (its group, backup group and model limit). */
export async function tokenModels(key: string): Promise<string[]> {
  const res = await fetch('/v1/models', { headers: { authorization: `Bearer ${withKeyPrefix(key)}` } });
  const body = (await res.json().catch(() => null)) as { data?: Array<{ id: string }>; error?: { message?: string } } | null;
  if (!res.ok || !Array.isArray(body?.data)) throw new ApiError(body?.error?.message || `Request failed with status code ${res.status}`, res.status);
  return body.data.map((m) => m.id);
}

/** The chat models of a token's list, sorted. */
export function chatModels(names: string[], info: Record<string, AvailableModel> | undefined): string[] {
  return names.filter((m) => isChatModel(info?.[m])).sort();
}
