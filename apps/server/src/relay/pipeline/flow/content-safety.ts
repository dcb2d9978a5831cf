import { HubError } from '../../../common/errors.js';
import { KeywordAutomaton } from '../../../common/keyword-automaton.js';
import type { OptionStore } from '../../../console/option/option-store.js';

export const SAFETY_MESSAGE = 'content contains sensitive information';
export const SAFETY_CODE = 'content_security_policy_blocking';

/** Keys whose string values are identifiers or encoded media, not text a person wrote. */
const NOT_TEXT = new Set([
  'model', 'role', 'type', 'id', 'tool_call_id', 'call_id', 'previous_response_id', 'url', 'image_url', 'file_id',
  'data', 'b64_json', 'inlineData', 'inline_data', 'fileData', 'file_data', 'mimeType', 'mime_type', 'media_type',
  'audio', 'signature', 'thoughtSignature', 'encrypted_content', 'response_format', 'user', 'service_tier',
]);

/** Calls `visit` with every human-written string in a JSON request body. */
export function forEachText(value: unknown, visit: (s: string) => boolean, depth = 0): boolean {
  if (typeof value === 'string') return value.startsWith('data:') ? false : visit(value);
  if (!value || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => forEachText(v, visit, depth + 1));
  for (const [k, v] of Object.entries(value)) {
    if (!NOT_TEXT.has(k) && forEachText(v, visit, depth + 1)) return true;
  }
  return false;
}

/** The automaton of the current SafeKeyWords, rebuilt only when the list text changes. */
export class ContentSafety {
  private listText?: string;
  private automaton = new KeywordAutomaton([]);

  constructor(private readonly options: OptionStore) {}

  private current(): KeywordAutomaton {
    const text = this.options.get('SafeKeyWords');
    if (text !== this.listText) {
      this.listText = text;
      this.automaton = new KeywordAutomaton(text.split(/\r?\n/));
    }
    return this.automaton;
  }

  /** Whether requests are checked at all (EnableSafe on and a non-empty list). */
  active(): boolean {
    return this.options.get('EnableSafe') && this.current().size > 0;
  }

  /** The forbidden word found in the request, or undefined (also when EnableSafe is off). */
  find(body: unknown, extra: readonly string[] = []): string | undefined {
    if (!this.active()) return undefined;
    const automaton = this.current();
    let found: string | undefined;
    const visit = (s: string) => (found = automaton.find(s)) !== undefined;
    for (const s of extra) if (visit(s)) return found;
    forEachText(body, visit);
    return found;
  }
}

/** The refusal a caller receives: the original gateway's message and code, 400. */
export function safetyRefusal(): HubError {
  return new HubError(400, SAFETY_MESSAGE, { type: 'one_hub_error', code: SAFETY_CODE });
}

