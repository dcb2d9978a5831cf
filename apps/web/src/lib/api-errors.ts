import { API_ERRORS, isApiErrorCode, isGenericApiError, type ApiErrorArgs, type ApiErrorCode, type FieldError } from '@one-hub/contract';
import i18n from './i18n';

/** Where the translations of server failures live: `server-text:error.<code>` and `server-text:field.<code>`. */
const NS = 'server-text';

/** One refused field in the reader's language (`at least 3 characters`); the schema's text for an unknown code. */
export function fieldErrorText(f: FieldError): string {
  return i18n.t(`${NS}:field.${f.code}`, { ...f.args, defaultValue: f.message });
}

/**
 * A `/api` failure in the reader's language (issue 38 point 2). The server's `message` is the
 * Chinese text of the code, so a zh_CN reader sees it unchanged (the texts console-spec.md binds).
 * A generic code (a failure not yet keyed) keeps the message for Chinese readers and says the
 * generic translation to the others; an unknown code or none shows the message as it came.
 */
export function failureText(code: string | undefined, args: ApiErrorArgs | undefined, fields: FieldError[] | undefined, message: string): string {
  if (!isApiErrorCode(code)) return message;
  const lng = i18n.resolvedLanguage ?? i18n.language ?? '';
  if (message && (lng === 'zh_CN' || (isGenericApiError(code) && lng.startsWith('zh')))) return message;
  const all: Record<string, string | number> = { ...args };
  // A refused body names its field and why, both in the reader's language.
  if (code === 'invalid_parameter' && fields?.[0]) all.detail = fieldErrorText(fields[0]);
  return i18n.t(`${NS}:error.${code}`, { ...all, defaultValue: message });
}

/** Reads the `args` and `fields` an error answer carries (absent or malformed: undefined). */
export function failureParts(body: unknown): { args?: ApiErrorArgs; fields?: FieldError[] } {
  const b = body as { args?: unknown; fields?: unknown } | undefined;
  const args = b?.args && typeof b.args === 'object' && !Array.isArray(b.args) ? (b.args as ApiErrorArgs) : undefined;
  const fields = Array.isArray(b?.fields) ? (b.fields as FieldError[]).filter((f) => f && typeof f.path === 'string' && typeof f.code === 'string') : undefined;
  return { args, fields };
}

/** Relay texts the console reads back by their template (the relay doors keep their wire shapes, so no code travels). */
const RELAY_TEXTS: readonly ApiErrorCode[] = ['no_available_channel'];

/**
 * A relay door's error message in the reader's language, when it is one of the gateway's own
 * texts (`当前分组 vip 下对于模型 m 无可用渠道 (request id: …)`); the request id stays. Anything
 * else (an upstream's message) is shown as it came.
 */
export function relayFailureText(message: string): string {
  const [, text, tail = ''] = /^(.*?)((?: \(request id: [^)]*\))?)$/s.exec(message) ?? [];
  for (const code of RELAY_TEXTS) {
    const names: string[] = [];
    const pattern = API_ERRORS[code]
      .split(/(\{\{\w+\}\})/)
      .map((part) => {
        const m = /^\{\{(\w+)\}\}$/.exec(part);
        if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(m[1]);
        return '(.+?)';
      })
      .join('');
    const found = new RegExp(`^${pattern}$`).exec(text ?? '');
    if (!found) continue;
    const args = Object.fromEntries(names.map((n, i) => [n, found[i + 1]]));
    return failureText(code, args, undefined, text) + tail;
  }
  return message;
}
