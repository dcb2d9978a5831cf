import { HubError } from '../../../common/errors.js';
import { isObject } from '../shared/json.js';

type TextBlock = { type: 'text'; text: string; [key: string]: unknown };

/** A stray system message's content as text blocks; anything but text is the caller's 400. */
function systemBlocks(content: unknown, at: string): TextBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new HubError(400, `${at}.content: must be a string or an array of text blocks`, { code: 'invalid_request' });
  return content.map((b, i) => {
    if (!isObject(b) || b.type !== 'text' || typeof b.text !== 'string') {
      throw new HubError(400, `${at}.content.${i}: a system message may hold only text blocks`, { code: 'invalid_request' });
    }
    return b as TextBlock;
  });
}

/**
 * Claude Code on a model it does not know (a GPT or Gemini name) sends `system` turns inside
 * `messages`. They are folded into the top-level `system`, in order, after what it held: a
 * string stays a string (joined by newlines) while everything is plain text; otherwise the
 * result is an array of text blocks, each block kept as sent (cache_control included).
 * A body without stray system turns is returned as the same object, so its bytes go out as received.
 */
export function foldStraySystem(body: Record<string, unknown>): Record<string, unknown> {
  const messages = body.messages;
  if (!Array.isArray(messages) || !messages.some((m) => isObject(m) && m.role === 'system')) return body;
  const strays: TextBlock[][] = [];
  const kept = messages.filter((m, i) => {
    if (!isObject(m) || m.role !== 'system') return true;
    strays.push(systemBlocks(m.content, `messages.${i}`));
    return false;
  });
  const top = body.system;
  let system: unknown;
  if ((top === undefined || typeof top === 'string') && strays.every((s) => s.length === 1 && Object.keys(s[0]).length === 2)) {
    const texts = strays.map((s) => s[0].text);
    system = (top ? [top, ...texts] : texts).join('\n');
  } else {
    const head = typeof top === 'string' ? (top ? [{ type: 'text', text: top }] : []) : Array.isArray(top) ? top : top === undefined ? [] : null;
    // A malformed top-level system is left for the door's check to name.
    if (!head) return body;
    system = [...head, ...strays.flat()];
  }
  return { ...body, system, messages: kept };
}
