import { parseArguments, parseDataUrl, textOf } from '../shared/json.js';
import type { HubContentPart, HubMessage } from '../openai/types.js';
import type { AnthropicBlock, AnthropicMessage, AnthropicTextBlock } from './types.js';

/** An OpenAI content part → an Anthropic block (null when it has no Anthropic form). */
function partToBlock(p: HubContentPart, warnings: string[], at: string): AnthropicBlock | null {
  if (p.type === 'text') {
    if (!p.text) return null;
    return p.cache_control ? { type: 'text', text: p.text, cache_control: p.cache_control } : { type: 'text', text: p.text };
  }
  if (p.type === 'image_url') {
    const data = parseDataUrl(p.image_url.url);
    if (!data) return { type: 'image', source: { type: 'url', url: p.image_url.url } };
    if (data.mimeType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: data.mimeType, data: data.data } };
    return { type: 'image', source: { type: 'base64', media_type: data.mimeType, data: data.data } };
  }
  if (p.type === 'file' && p.file.file_data) {
    const data = parseDataUrl(p.file.file_data);
    if (data) return { type: 'document', source: { type: 'base64', media_type: data.mimeType, data: data.data } };
  }
  warnings.push(`${at}: dropped ${p.type} part (no Anthropic equivalent)`);
  return null;
}

function contentToBlocks(content: HubMessage['content'], warnings: string[], at: string): AnthropicBlock[] {
  if (content == null) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.map((p, j) => partToBlock(p, warnings, `${at}.content.${j}`)).filter((b): b is AnthropicBlock => b !== null);
}

function assistantBlocks(m: HubMessage, warnings: string[], at: string): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  // Only signed thinking can go back to Anthropic; reasoning from other models is stripped.
  const signed = (m.thinking_blocks ?? []).filter((t) => (t.type === 'thinking' ? !!t.signature : !!t.data));
  if (signed.length) blocks.push(...signed);
  else if (m.reasoning_content || m.thinking_blocks?.length) warnings.push(`${at}: unsigned reasoning from another model stripped`);
  blocks.push(...contentToBlocks(m.content, warnings, at));
  m.tool_calls?.forEach((c, k) => {
    blocks.push({ type: 'tool_use', id: c.id, name: c.function.name, input: parseArguments(c.function.arguments, `${at}.tool_calls.${k}.function.arguments`) });
    if (c.extra_content?.google?.thought_signature) warnings.push(`${at}: Gemini thought signature dropped`);
  });
  return blocks;
}

/** A message-level cache_control marks the message's last block (where Anthropic puts breakpoints). */
function withCacheControl(blocks: AnthropicBlock[], cacheControl: unknown): AnthropicBlock[] {
  if (cacheControl && blocks.length) blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: cacheControl } as AnthropicBlock;
  return blocks;
}

export interface SplitMessages {
  system: AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

/**
 * Hub messages → Anthropic system blocks + strictly alternating messages:
 * system/developer messages move to `system` (wherever they were), tool results
 * become user tool_result blocks, and consecutive same-role turns are merged.
 */
export function messagesToAnthropic(input: HubMessage[], warnings: string[]): SplitMessages {
  const system: AnthropicTextBlock[] = [];
  const messages: AnthropicMessage[] = [];
  let seenChat = false;
  const push = (role: 'user' | 'assistant', blocks: AnthropicBlock[]) => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) (last.content as AnthropicBlock[]).push(...blocks);
    else messages.push({ role, content: blocks });
  };
  input.forEach((m, i) => {
    const at = `messages.${i}`;
    if (m.role === 'system' || m.role === 'developer') {
      if (seenChat) warnings.push(`${at}: ${m.role} message moved to the top-level system prompt`);
      for (const b of withCacheControl(contentToBlocks(m.content, warnings, at), m.cache_control)) if (b.type === 'text') system.push(b);
      return;
    }
    seenChat = true;
    if (m.role === 'tool' || m.role === 'function') {
      const id = m.tool_call_id ?? m.name ?? '';
      push('user', [{ type: 'tool_result', tool_use_id: id, content: textOf(m.content), ...(m.cache_control ? { cache_control: m.cache_control } : {}) }]);
      return;
    }
    if (m.role === 'assistant') {
      const blocks = assistantBlocks(m, warnings, at);
      if (blocks.length) push('assistant', blocks);
      else warnings.push(`${at}: empty assistant message dropped`);
      return;
    }
    const blocks = withCacheControl(contentToBlocks(m.content, warnings, at), m.cache_control);
    if (blocks.length) push('user', blocks);
    else warnings.push(`${at}: empty user message dropped`);
  });
  // Anthropic requires the first turn to be the user's.
  if (messages.length === 0 || messages[0].role !== 'user') {
    messages.unshift({ role: 'user', content: [{ type: 'text', text: '(continue)' }] });
    warnings.push('messages: a placeholder user turn was added because the conversation did not start with one');
  }
  // tool_result blocks must lead their user turn.
  for (const m of messages) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    const blocks = m.content;
    m.content = [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
  }
  return { system, messages };
}
