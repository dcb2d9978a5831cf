/**
 * A request that cannot be converted (bad input, not a gateway fault). The
 * pipeline renders it as a 400 in the caller's format; `field` names the culprit.
 */
export class FormatError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
    this.name = 'FormatError';
  }
}

/** An upstream stream reported a failure after the first byte (e.g. Anthropic `error` event). */
export class UpstreamStreamError extends Error {
  constructor(message: string, readonly type = 'api_error', readonly status = 502) {
    super(message);
    this.name = 'UpstreamStreamError';
  }
}

/** A converter's answer: the converted value and what it could not carry over. */
export interface Converted<T> {
  value: T;
  warnings: string[];
}
