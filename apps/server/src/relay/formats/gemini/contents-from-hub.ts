import { isObject, mimeFromUrl, parseArguments, parseDataUrl, textOf } from '../shared/json.js';
import type { HubContentPart, HubMessage } from '../openai/types.js';
import type { GeminiContent, GeminiPart } from './types.js';

function partToGemini(p: HubContentPart, warnings: string[], at: string): GeminiPart | null {
  if (p.type === 'text') return p.text ? { text: p.text } : null;
  if (p.type === 'image_url') {
    const data = parseDataUrl(p.image_url.url);
    return data ? { inlineData: { mimeType: data.mimeType, data: data.data } } : { fileData: { mimeType: mimeFromUrl(p.image_url.url), fileUri: p.image_url.url } };
  }
  if (p.type === 'input_audio') return { inlineData: { mimeType: `audio/${p.input_audio.format === 'mp3' ? 'mpeg' : p.input_audio.format}`, data: p.input_audio.data } };
  if (p.type === 'file' && p.file.file_data) {
    const data = parseDataUrl(p.file.file_data);
    if (data) return { inlineData: { mimeType: data.mimeType, data: data.data } };
  }
  warnings.push(`${at}: dropped ${p.type} part (no Gemini equivalent)`);
  return null;
}

function contentParts(content: HubMessage['content'], warnings: string[], at: string): GeminiPart[] {
  if (content == null) return [];
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  return content.map((p, j) => partToGemini(p, warnings, `${at}.content.${j}`)).filter((p): p is GeminiPart => p !== null);
}

/** A tool result as a functionResponse.response object (JSON objects kept, anything else wrapped). */
function toolResponse(content: HubMessage['content']): Record<string, unknown> {
  const text = textOf(content);
  try {
    const v: unknown = JSON.parse(text);
    if (isObject(v)) return v;
  } catch {
    // plain text result
  }
  return { content: text };
}

export interface ContentsOptions {
  /** Signature to put on a tool-call turn that has none (Gemini 3 rejects unsigned tool turns). */
  fallbackThoughtSignature?: string;
}

function modelParts(m: HubMessage, opts: ContentsOptions, warnings: string[], at: string): GeminiPart[] {
  const sig = m.extra_content?.google?.thought_signature;
  if (m.thinking_blocks?.length) warnings.push(`${at}: Anthropic thinking blocks stripped`);
  else if (m.reasoning_content && !sig) warnings.push(`${at}: reasoning_content from another model stripped`);
  const parts = contentParts(m.content, warnings, at);
  // Gemini puts a text turn's signature on its last part.
  if (sig && parts.length) parts[parts.length - 1].thoughtSignature = sig;
  m.tool_calls?.forEach((c, k) => {
    const part: GeminiPart = { functionCall: { name: c.function.name, args: parseArguments(c.function.arguments, `${at}.tool_calls.${k}.function.arguments`) } };
    const callSig = c.extra_content?.google?.thought_signature ?? (k === 0 ? opts.fallbackThoughtSignature : undefined);
    if (callSig) part.thoughtSignature = callSig;
    parts.push(part);
  });
  if (sig && !parts.length) parts.push({ text: '', thoughtSignature: sig });
  return parts;
}

/**
 * Hub messages → Gemini systemInstruction text + contents. Tool results become
 * user functionResponse parts named after their call; same-role turns merge.
 */
export function messagesToGemini(messages: HubMessage[], opts: ContentsOptions, warnings: string[]): { system: GeminiPart[]; contents: GeminiContent[] } {
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const names = new Map<string, string>();
  const push = (role: 'user' | 'model', parts: GeminiPart[]) => {
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  messages.forEach((m, i) => {
    const at = `messages.${i}`;
    if (m.role === 'system' || m.role === 'developer') {
      system.push(...contentParts(m.content, warnings, at).filter((p) => p.text !== undefined));
      return;
    }
    if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
      const parts = modelParts(m, opts, warnings, at);
      if (parts.length) push('model', parts);
      else warnings.push(`${at}: empty assistant message dropped`);
      return;
    }
    if (m.role === 'tool' || m.role === 'function') {
      const name = (m.tool_call_id && names.get(m.tool_call_id)) || m.name || 'unknown';
      push('user', [{ functionResponse: { name, response: toolResponse(m.content) } }]);
      return;
    }
    const parts = contentParts(m.content, warnings, at);
    if (parts.length) push('user', parts);
    else warnings.push(`${at}: empty user message dropped`);
  });
  return { system, contents };
}
