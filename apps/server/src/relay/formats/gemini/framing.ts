import type { GeminiSafetySetting } from './types.js';

/** The original gateway's safety settings: nothing blocked for the five adjustable categories. */
export const GEMINI_BLOCK_NONE_SAFETY: readonly GeminiSafetySetting[] = [
  'HARM_CATEGORY_HARASSMENT', 'HARM_CATEGORY_HATE_SPEECH', 'HARM_CATEGORY_SEXUALLY_EXPLICIT', 'HARM_CATEGORY_DANGEROUS_CONTENT', 'HARM_CATEGORY_CIVIC_INTEGRITY',
].map((category) => ({ category, threshold: 'BLOCK_NONE' }));

/**
 * `streamGenerateContent` without `alt=sse` answers one JSON array written
 * piece by piece: `[` + chunk, `,\r\n` + chunk …, `]`. Per-request framer.
 */
export function createJsonArrayFramer() {
  let started = false;
  return {
    frame(chunk: unknown): string {
      const head = started ? ',\r\n' : '[';
      started = true;
      return head + JSON.stringify(chunk);
    },
    end(): string {
      return started ? ']' : '[]';
    },
  };
}
