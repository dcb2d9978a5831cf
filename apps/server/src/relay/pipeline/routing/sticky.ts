import { hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Endpoint } from '../../providers/types.js';
import { pickWeighted, type IndexedChannel } from './channel-index.js';
import type { Prepared } from '../flow/prepare.js';
import type { RelayState } from '../relay-state.js';
import type { SelectOptions } from './selector.js';

/** Headers agents send to name their session (Codex: session_id / conversation_id). */
const SESSION_HEADERS = ['session_id', 'x-session-id', 'conversation_id'];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * The session an agent names itself: Claude Code's `metadata.user_id`, Codex's
 * `prompt_cache_key` or session header. Property reads only; no hashing here.
 */
export function namedSession(endpoint: Endpoint, body: Record<string, unknown>, headers: IncomingHttpHeaders): string | undefined {
  if (endpoint === 'messages') {
    const named = str((body.metadata as { user_id?: unknown } | undefined)?.user_id);
    if (named) return named;
  }
  const key = str(body.prompt_cache_key);
  if (key) return key;
  for (const h of SESSION_HEADERS) {
    const v = headers[h];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

/**
 * The opening of a conversation (system prompt and first message): stable across its turns.
 * A Responses turn continuing a kept conversation opens with the kept first message.
 */
function opening(endpoint: Endpoint, body: Record<string, unknown>, history?: unknown[]): unknown[] | undefined {
  const first = <T>(list: unknown, keep: (item: T) => boolean) => (Array.isArray(list) ? (list as T[]).find(keep) : undefined);
  switch (endpoint) {
    case 'chat/completions': {
      const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string }>) : [];
      return [messages.filter((m) => m.role === 'system' || m.role === 'developer'), messages.find((m) => m.role === 'user')];
    }
    case 'messages':
      return [body.system, first(body.messages, () => true)];
    // A compaction of a conversation stays on the conversation's channel (its encrypted items came from there).
    case 'responses':
    case 'responses/compact': {
      // The first user message's content: a plain-string input is kept as such a message.
      const input = history?.length ? history : body.input;
      return [body.instructions, typeof input === 'string' ? input : first<{ role?: string; content?: unknown }>(input, (i) => i.role === 'user')?.content];
    }
    case 'generateContent':
      return [body.systemInstruction ?? body.system_instruction, first(body.contents, () => true)];
    default:
      return undefined;
  }
}

/**
 * Collects a bounded sample of a value: long strings (a 20 kB system prompt, a base64 image)
 * by their ends and length, and at most ~4 kB in all, so hashing costs the same whatever the
 * prompt's size while different conversations still differ.
 */
function sample(value: unknown, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  if (typeof value === 'string') {
    const part = value.length > 512 ? `${value.slice(0, 256)}${value.slice(-256)}${value.length}` : value;
    out.push(part);
    budget.left -= part.length;
  } else if (Array.isArray(value)) {
    for (const item of value) sample(item, out, budget);
  } else if (value && typeof value === 'object') {
    for (const k in value) {
      out.push(k);
      sample((value as Record<string, unknown>)[k], out, budget);
    }
  } else out.push(`${String(value)}\u0000`);
}

const chainKey = (responseId: string) => `sticky-chain:${responseId}`;

/**
 * After a Responses answer: a next turn naming it in `previous_response_id` (which carries no
 * session id and whose input is only the new message) finds this session through it.
 */
export function chainResponse(state: RelayState, p: Prepared, responseId: unknown): void {
  const ttl = state.ctx.options.get('StickySessionTTLSeconds');
  if (p.stickyKey && typeof responseId === 'string' && responseId && ttl > 0) void state.ctx.store.set(chainKey(responseId), p.stickyKey, ttl);
}

/** The routing key of the request's session, or undefined when it is not a conversation. */
async function stickyKey(state: RelayState, p: Prepared): Promise<string | undefined> {
  if (p.multipart) return undefined;
  const previous = (p.body as Record<string, unknown>).previous_response_id;
  const responsesApi = p.endpoint === 'responses' || p.endpoint === 'responses/compact';
  if (responsesApi && !p.namedSession && !p.history && typeof previous === 'string' && previous) {
    const chained = await state.ctx.store.get(chainKey(previous));
    if (chained) return chained;
  }
  const parts = [`${p.caller.user.id}\n${p.model}\n`];
  if (p.namedSession) parts.push(p.namedSession);
  else {
    const open = opening(p.endpoint, p.body as Record<string, unknown>, p.history);
    if (!open || open.every((part) => part === undefined)) return undefined;
    sample(open, parts, { left: 4 * 1024 });
  }
  // One native call over the joined sample: cheaper than a Hash object fed piece by piece.
  return `sticky:${hash('sha1', parts.join('\u0001'), 'base64url')}`;
}

/**
 * Picks a channel, keeping an agent session on the channel that served it while that
 * channel stays among the usable candidates of the best tier (so the upstream's prompt
 * cache stays warm). Frozen, disabled or already-failed channels drop out of the
 * candidates, and the session moves to whichever channel serves it next. One shared-store
 * read per conversation request whose model has more than one channel (a map lookup, or a
 * Redis GET when Redis is on); the entry is rewritten only when the session moves or nears expiry.
 */
export async function selectSticky(state: RelayState, p: Prepared, group: string, opts: SelectOptions): Promise<IndexedChannel | undefined> {
  const usable = state.selector.candidates(group, p.model, opts);
  const ttl = state.ctx.options.get('StickySessionTTLSeconds');
  // Looked up even with a single candidate, so a session that moved while its channel was out stays moved;
  // skipped when the model has only one channel at all (nothing to keep a session on).
  const key = usable.length && ttl > 0 && state.selector.hasChoice(group, p.model) ? await stickyKey(state, p) : undefined;
  if (!key) return pickWeighted(usable);
  const now = Math.floor(Date.now() / 1000);
  const [id, refreshAt] = ((await state.ctx.store.get(key)) ?? '').split(':').map(Number);
  const held = usable.find((c) => c.row.id === id);
  const picked = held ?? pickWeighted(usable)!;
  if (!held || refreshAt <= now) {
    // Refreshed at half-life, so an active session never expires and idle ones do.
    void state.ctx.store.set(key, `${picked.row.id}:${now + Math.ceil(ttl / 2)}`, ttl);
  }
  p.stickyKey = key;
  return picked;
}

/** A failed attempt on the session's channel: the next request chooses afresh. */
export function releaseSticky(state: RelayState, p: Prepared): void {
  if (p.stickyKey) void state.ctx.store.del(p.stickyKey);
}
