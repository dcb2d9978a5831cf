import type { Converted } from '../shared/errors.js';
import { nowSeconds, randomIds, type IdSource } from '../shared/ids.js';
import { parseArgumentsLenient } from '../shared/json.js';
import type { HubChoice, HubMessage, HubResponse } from '../openai/types.js';
import { emptyUsage, usageFromOpenAI, usageToOpenAI, type Usage } from '../openai/usage.js';
import { finishReasonToGemini, finishReasonToHub } from './finish-reason.js';
import { readParts } from './parts.js';
import type { GeminiCandidate, GeminiPart, GeminiResponse } from './types.js';
import { usageFromGemini, usageToGemini } from './usage.js';
import { reasoningOf } from '../openai/reasoning.js';

const ODD_FINISH = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'OTHER', 'TOO_MANY_TOOL_CALLS', 'NO_IMAGE']);

/** Gemini generateContent response → hub chat completion (one choice per candidate), with usage. */
export function geminiResponseToHub(res: GeminiResponse, opts: { model: string; ids?: IdSource; now?: number }): Converted<HubResponse> & { usage: Usage } {
  const warnings: string[] = [];
  const ids = opts.ids ?? randomIds;
  const choices: HubChoice[] = (res.candidates ?? []).map((c: GeminiCandidate, i) => {
    const s = readParts(c.content?.parts ?? [], ids, warnings);
    const message: HubMessage = { role: 'assistant', content: s.text || (s.toolCalls.length ? null : '') };
    if (s.reasoning) message.reasoning_content = s.reasoning;
    if (s.signature) message.extra_content = { google: { thought_signature: s.signature } };
    if (s.toolCalls.length) message.tool_calls = s.toolCalls;
    if (s.images.length) message.images = s.images;
    if (c.finishReason && ODD_FINISH.has(c.finishReason)) warnings.push(`candidate ${i}: finishReason ${c.finishReason}`);
    return { index: c.index ?? i, message, finish_reason: finishReasonToHub(c.finishReason, s.toolCalls.length > 0) ?? 'stop' };
  });
  if (!choices.length) {
    // A blocked prompt: answer an empty filtered choice instead of failing the call.
    choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' });
    warnings.push(`no candidates${res.promptFeedback?.blockReason ? ` (prompt blocked: ${res.promptFeedback.blockReason})` : ''}`);
  }
  const usage = usageFromGemini(res.usageMetadata) ?? emptyUsage();
  const value: HubResponse = {
    id: res.responseId ? `chatcmpl-${res.responseId}` : ids.next('chatcmpl'),
    object: 'chat.completion',
    created: opts.now ?? nowSeconds(),
    model: opts.model,
    choices,
    usage: usageToOpenAI(usage),
  };
  return { value, usage, warnings };
}

/** One hub assistant message → Gemini model parts (thought text, text with its signature, function calls). */
export function messageToParts(m: HubMessage, warnings: string[], at: string): GeminiPart[] {
  const parts: GeminiPart[] = [];
  if (reasoningOf(m)) parts.push({ text: reasoningOf(m), thought: true });
  const text = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  if (text) parts.push({ text });
  const sig = m.extra_content?.google?.thought_signature;
  if (sig) {
    if (parts.length) parts[parts.length - 1].thoughtSignature = sig;
    else parts.push({ text: '', thoughtSignature: sig });
  }
  for (const img of m.images ?? []) {
    const match = /^data:([^;]+);base64,(.*)$/s.exec(img.image_url.url);
    if (match) parts.push({ inlineData: { mimeType: match[1], data: match[2] } });
  }
  m.tool_calls?.forEach((c, k) => {
    const p: GeminiPart = { functionCall: { id: c.id, name: c.function.name, args: parseArgumentsLenient(c.function.arguments, `${at}.tool_calls.${k}`, warnings) } };
    if (c.extra_content?.google?.thought_signature) p.thoughtSignature = c.extra_content.google.thought_signature;
    parts.push(p);
  });
  return parts;
}

/** Hub chat completion → Gemini generateContent response. */
export function hubResponseToGemini(res: HubResponse, opts: { usage?: Usage } = {}): Converted<GeminiResponse> {
  const warnings: string[] = [];
  const candidates = res.choices.map((c) => ({
    content: { role: 'model', parts: messageToParts(c.message, warnings, `choices.${c.index}`) },
    finishReason: finishReasonToGemini(c.finish_reason),
    index: c.index,
  }));
  const usage = opts.usage ?? usageFromOpenAI(res.usage) ?? emptyUsage();
  return { value: { candidates, usageMetadata: usageToGemini(usage), modelVersion: res.model, responseId: res.id }, warnings };
}
