import { relayFailureText } from '../../lib/api-errors';

/** Server-sent events read from a chat completion stream (OpenAI wire format). */

export interface SseReader {
  /** Feeds decoded text; answers the `data:` payloads of every event completed by it. */
  push(text: string): string[];
}

/** Splits a byte stream into events at blank lines, joining multi-line `data:` fields; comments are skipped. */
export function createSseReader(): SseReader {
  let buffer = '';
  return {
    push(text) {
      buffer += text.replace(/\r\n?/g, '\n');
      const out: string[] = [];
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''));
        if (data.length) out.push(data.join('\n'));
      }
      return out;
    },
  };
}

export interface ChunkDelta {
  content: string;
  reasoning: string;
  done: boolean;
  error?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** Reads one `data:` payload: `[DONE]`, an error event, or a chunk's content/reasoning deltas and usage. */
export function readChunk(data: string): ChunkDelta {
  if (data.trim() === '[DONE]') return { content: '', reasoning: '', done: true };
  let chunk: any;
  try {
    chunk = JSON.parse(data);
  } catch {
    return { content: '', reasoning: '', done: false };
  }
  if (chunk?.error) return { content: '', reasoning: '', done: true, error: relayFailureText(String(chunk.error.message ?? chunk.error)) };
  const delta = chunk?.choices?.[0]?.delta ?? {};
  return {
    content: typeof delta.content === 'string' ? delta.content : '',
    reasoning: typeof delta.reasoning_content === 'string' ? delta.reasoning_content : '',
    done: false,
    usage: chunk?.usage ?? undefined,
  };
}

/** The message of a failed (non-2xx) gateway answer. */
export function errorMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body);
    const message = parsed?.error?.message ?? parsed?.message;
    if (typeof message === 'string' && message) return relayFailureText(message);
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.trim() || `HTTP ${status}`;
}
