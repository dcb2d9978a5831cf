import { isApiErrorCode, isGenericApiError, type ApiErrorArgs, type FieldError } from '@one-hub/contract';
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
