import { EventStreamDecoder, type EventStreamMessage } from './eventstream.js';

/** What one Bedrock stream message means: a Claude stream event, or a failure. */
export type BedrockStreamItem =
  | { kind: 'event'; type: string; data: string }
  | { kind: 'error'; type: string; message: string };

/**
 * Reads one InvokeModelWithResponseStream message: `chunk` events carry a
 * Claude stream event as base64 JSON in `bytes`; exception and error messages
 * (throttling, model stream errors, validation…) become failures.
 */
export function readBedrockMessage(message: EventStreamMessage): BedrockStreamItem | null {
  const kind = message.headers[':message-type'];
  const text = message.payload.toString('utf8');
  if (kind === 'exception') {
    let detail = text;
    try {
      detail = JSON.parse(text).message ?? text;
    } catch {
      // a non-JSON exception payload is its own message
    }
    return { kind: 'error', type: String(message.headers[':exception-type'] ?? 'exception'), message: detail };
  }
  if (kind === 'error') {
    return { kind: 'error', type: String(message.headers[':error-code'] ?? 'error'), message: String(message.headers[':error-message'] ?? text) };
  }
  if (message.headers[':event-type'] !== 'chunk') return null;
  const bytes = JSON.parse(text).bytes;
  if (typeof bytes !== 'string') return null;
  const data = Buffer.from(bytes, 'base64').toString('utf8');
  return { kind: 'event', type: String(JSON.parse(data).type ?? ''), data };
}

/** Decodes a Bedrock response stream chunk by chunk into Claude events and failures. */
export function createBedrockStreamReader() {
  const decoder = new EventStreamDecoder();
  return {
    push(chunk: Uint8Array): BedrockStreamItem[] {
      return decoder.push(chunk).map(readBedrockMessage).filter((m): m is BedrockStreamItem => m !== null);
    },
    /** True when the body ended inside a message. */
    truncated: () => decoder.pending > 0,
  };
}
