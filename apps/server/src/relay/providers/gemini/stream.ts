import { usageFromGemini } from '../../formats/index.js';
import { billingUsageOrNull } from '../../bridge/usage.js';
import type { StreamMapper } from '../types.js';
import { parseFrame } from '../shared/broken-frame.js';

interface Chunk {
  candidates?: Array<{ finishReason?: string; content?: { parts?: Array<{ text?: string; functionCall?: unknown }> } }>;
  usageMetadata?: unknown;
}

/** Gemini stream to a Gemini caller: chunks pass through unchanged (thought signatures included); usage is tapped. */
export function createGeminiPassThrough(): StreamMapper {
  let usage: unknown = null;
  let ended = false;
  const parts: string[] = [];
  return {
    onEvent(data) {
      const chunk = parseFrame<Chunk>(data);
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
      for (const c of chunk.candidates ?? []) {
        if (c.finishReason) ended = true;
        for (const part of c.content?.parts ?? []) {
          if (typeof part.text === 'string') parts.push(part.text);
          if (part.functionCall) parts.push(JSON.stringify(part.functionCall));
        }
      }
      return [data];
    },
    usage: () => billingUsageOrNull(usageFromGemini(usage), 'gemini'),
    text: () => parts.join(''),
    finish: () => [],
    ended: () => ended,
    fail: (message) => [JSON.stringify({ error: { code: 502, message, status: 'UNAVAILABLE' } })],
  };
}
