import { HubError } from '../../../common/errors.js';

export const BROKEN_FRAME = 'upstream sent a broken stream frame';

/**
 * A stream event that is not the JSON it must be. Before the first event it is a failed
 * attempt (retryable, fails over); later it ends the stream with an error event.
 */
export const brokenFrame = () => new HubError(502, BROKEN_FRAME, { code: 'broken_answer', retryable: true });

/** Parses a pass-through event; a frame that does not parse is a broken frame, never forwarded. */
export function parseFrame<T>(data: string): T {
  try {
    return JSON.parse(data) as T;
  } catch {
    throw brokenFrame();
  }
}
