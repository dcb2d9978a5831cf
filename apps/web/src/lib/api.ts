import type { ApiErrorArgs, Envelope, FieldError } from '@one-hub/contract';
import { failureParts, failureText } from './api-errors';

/**
 * A failed call: HTTP status (0 for a network failure, 200 for `success: false`) and the server's
 * message in the reader's language (translated from its `code` and `args`, see api-errors.ts).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** `data.message` of an error response in the reader's language, when the server sent one. */
    readonly serverMessage?: string,
    /** `code` and `data` of an error the console acts on (e.g. `step_up_required` with the usable factors). */
    readonly code?: string,
    readonly data?: unknown,
    /** The code's arguments and the refused fields of a request body (for the form to show at each field). */
    readonly args?: ApiErrorArgs,
    readonly fields?: FieldError[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let onUnauthorized: () => void = () => undefined;
/** What a 401 does (the app clears the stored user and the account). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** The session check's client: a 401 here is silent (console-screens §1.1). */
  silent401?: boolean;
}

export function withQuery(path: string, query?: CallOptions['query']): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

/** Calls the console API and unwraps `{success, message, data}`; every failure throws ApiError. */
export async function api<T = unknown>(path: string, opts: CallOptions = {}): Promise<T> {
  return (await apiWithMessage<T>(path, opts)).data;
}

/** As `api`, keeping the success message (OAuth answers "bind" there). */
export async function apiWithMessage<T = unknown>(path: string, opts: CallOptions = {}): Promise<{ message: string; data: T }> {
  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), {
      method: opts.method ?? (opts.json === undefined ? 'GET' : 'POST'),
      credentials: 'same-origin',
      headers: opts.json === undefined ? undefined : { 'content-type': 'application/json' },
      body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
    });
  } catch (e) {
    throw new ApiError(e instanceof Error ? e.message : String(e), 0);
  }
  if (res.status === 401 && !opts.silent401) onUnauthorized();
  let body: Partial<Envelope<T>> | undefined;
  try {
    body = (await res.json()) as Envelope<T>;
  } catch {
    body = undefined;
  }
  const raw = typeof body?.message === 'string' && body.message ? body.message : undefined;
  const code = typeof (body as { code?: unknown } | undefined)?.code === 'string' ? (body as { code: string }).code : undefined;
  if (body?.success === true && res.ok) return { message: raw ?? '', data: body.data as T };
  const { args, fields } = failureParts(body);
  const shown = raw === undefined && !code ? undefined : failureText(code, args, fields, raw ?? '') || raw;
  if (!res.ok) throw new ApiError(shown ?? `Request failed with status code ${res.status}`, res.status, shown, code, body?.data, args, fields);
  throw new ApiError(shown ?? '', 200, shown, code, body?.data, args, fields);
}
