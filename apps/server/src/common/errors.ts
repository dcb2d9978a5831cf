import { apiErrorText, type ApiErrorArgs, type ApiErrorCode, type FieldError } from '@one-hub/contract';

/**
 * The one error type of the project. Console routes render it as the
 * `{success:false, message}` envelope; relay routes render it in the
 * caller's wire format (OpenAI, Anthropic or Gemini shape).
 */
export class HubError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  /** Another channel may succeed where this one failed. */
  readonly retryable: boolean;
  /** Raw upstream body, kept for logs; never sent to non-admins unscrubbed. */
  readonly upstream?: unknown;
  /** Seconds the caller should wait before retrying; sent as `Retry-After`. */
  readonly retryAfter?: number;
  /** What the console answer carries besides the message (with `code`), for errors the console acts on. */
  readonly data?: unknown;
  /** The arguments of a console code (`{code: 'group_exists', args: {name}}`), for the reader's translation. */
  readonly args?: ApiErrorArgs;
  /** Field errors of a refused request body, for the form to show at each field. */
  readonly fields?: FieldError[];

  constructor(
    status: number,
    message: string,
    opts: {
      type?: string;
      code?: string | null;
      retryable?: boolean;
      upstream?: unknown;
      retryAfter?: number;
      data?: unknown;
      args?: ApiErrorArgs;
      fields?: FieldError[];
    } = {},
  ) {
    super(message);
    this.name = 'HubError';
    this.status = status;
    this.type = opts.type ?? (status >= 500 ? 'one_hub_error' : 'invalid_request_error');
    this.code = opts.code ?? null;
    this.retryable = opts.retryable ?? false;
    this.upstream = opts.upstream;
    this.retryAfter = opts.retryAfter;
    this.data = opts.data;
    this.args = opts.args;
    this.fields = opts.fields;
  }
}

/**
 * A console failure by its listed code (packages/contract api-error.ts): the message is the
 * code's Chinese text with `args` filled in (what `message` said before codes), unless given.
 */
export function apiError(
  status: number,
  code: ApiErrorCode,
  args?: ApiErrorArgs,
  opts: { message?: string; data?: unknown; retryAfter?: number; fields?: FieldError[] } = {},
): HubError {
  return new HubError(status, opts.message ?? apiErrorText(code, args), { code, args, data: opts.data, retryAfter: opts.retryAfter, fields: opts.fields });
}

export const badRequest = (message: string, code?: string) => new HubError(400, message, { code });
export const unauthorized = (message: string) => new HubError(401, message, { code: 'unauthorized' });
export const forbidden = (message: string) => new HubError(403, message, { code: 'forbidden' });
export const notFound = (message: string) => new HubError(404, message, { code: 'not_found' });
export const conflict = (message: string) => new HubError(409, message, { code: 'conflict' });
