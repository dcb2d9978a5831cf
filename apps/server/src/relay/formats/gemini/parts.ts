import { randomIds, type IdSource } from '../shared/ids.js';
import { toDataUrl } from '../shared/json.js';
import type { HubExtraContent, HubImagePart, HubToolCall } from '../openai/types.js';
import type { GeminiPart } from './types.js';

/** What a list of Gemini response parts says, in hub terms. */
export interface PartsSummary {
  text: string;
  reasoning: string;
  toolCalls: HubToolCall[];
  images: HubImagePart[];
  /** Signature found on a non-call part. */
  signature?: string;
}

/** Reads model parts: thought text → reasoning, functionCall → tool calls (ids made when absent), images → data URLs, code → fenced blocks. */
export function readParts(parts: GeminiPart[], ids: IdSource = randomIds, warnings: string[] = []): PartsSummary {
  const s: PartsSummary = { text: '', reasoning: '', toolCalls: [], images: [] };
  for (const p of parts) {
    if (p.functionCall) {
      const tc: HubToolCall = { id: p.functionCall.id ?? ids.next('call'), type: 'function', function: { name: p.functionCall.name, arguments: JSON.stringify(p.functionCall.args ?? {}) } };
      if (p.thoughtSignature) tc.extra_content = { google: { thought_signature: p.thoughtSignature } } satisfies HubExtraContent;
      s.toolCalls.push(tc);
      continue;
    }
    if (p.thoughtSignature) s.signature = p.thoughtSignature;
    if (typeof p.text === 'string') {
      if (p.thought) s.reasoning += p.text;
      else s.text += p.text;
    } else if (p.inlineData) s.images.push({ type: 'image_url', image_url: { url: toDataUrl(p.inlineData.mimeType, p.inlineData.data) } });
    else if (p.executableCode) s.text += `\n\`\`\`${(p.executableCode.language ?? '').toLowerCase()}\n${p.executableCode.code}\n\`\`\`\n`;
    else if (p.codeExecutionResult) s.text += `\n\`\`\`\n${p.codeExecutionResult.output ?? ''}\n\`\`\`\n`;
    else if (!p.thoughtSignature) warnings.push(`dropped response part with keys ${Object.keys(p).join(',')}`);
  }
  return s;
}
