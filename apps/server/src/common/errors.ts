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

  constructor(
    status: number,
    message: string,
    opts: { type?: string; code?: string | null; retryable?: boolean; upstream?: unknown; retryAfter?: number; data?: unknown } = {},
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
  }
}

export const badRequest = (message: string, code?: string) => new HubError(400, message, { code });
export const unauthorized = (message: string) => new HubError(401, message, { code: 'unauthorized' });
export const forbidden = (message: string) => new HubError(403, message, { code: 'forbidden' });
export const notFound = (message: string) => new HubError(404, message, { code: 'not_found' });
export const conflict = (message: string) => new HubError(409, message, { code: 'conflict' });
