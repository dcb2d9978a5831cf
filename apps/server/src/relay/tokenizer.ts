import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';

/** o200k for the GPT-4o generation and later, cl100k for older models and everything else. */
function usesO200k(model: string): boolean {
  return /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d|chatgpt-4o|codex)/.test(model);
}

export function countText(model: string, text: string, approximate = false): number {
  if (!text) return 0;
  if (approximate) return Math.floor(Buffer.byteLength(text) * 0.38);
  return usesO200k(model) ? countO200k(text) : countCl100k(text);
}

interface ChatMessage {
  role?: unknown;
  name?: unknown;
  content?: unknown;
  tool_calls?: unknown;
}

function contentText(content: unknown): { text: string; images: number } {
  if (typeof content === 'string') return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: content == null ? '' : JSON.stringify(content), images: 0 };
  let text = '';
  let images = 0;
  for (const part of content as Array<{ type?: string; text?: unknown }>) {
    if (part?.type === 'text' && typeof part.text === 'string') text += `${part.text}\n`;
    else if (part?.type === 'image_url' || part?.type === 'input_image') images++;
  }
  return { text, images };
}

/** Tokens per image when the size is unknown: a high-detail 1024×1024 tile budget (765), not a download. */
export const IMAGE_TOKEN_ESTIMATE = 765;

/** Prompt estimate for chat messages: +3 per message, +1 per name, +3 overall (relay.md §4.4). */
export function countChat(model: string, messages: unknown, tools?: unknown, approximate = false): number {
  if (!Array.isArray(messages)) return 0;
  let overhead = 3;
  let images = 0;
  const texts: string[] = [];
  for (const m of messages as ChatMessage[]) {
    overhead += 3;
    if (typeof m?.role === 'string') texts.push(m.role);
    if (typeof m?.name === 'string') {
      texts.push(m.name);
      overhead += 1;
    }
    const c = contentText(m?.content);
    texts.push(c.text);
    images += c.images;
    if (m?.tool_calls) texts.push(JSON.stringify(m.tool_calls));
  }
  if (tools) texts.push(JSON.stringify(tools));
  return overhead + images * IMAGE_TOKEN_ESTIMATE + countText(model, texts.join('\n'), approximate);
}

/** Tokens of an `input` field (string, list of strings, or anything else serialised). */
export function countInput(model: string, input: unknown, approximate = false): number {
  if (typeof input === 'string') return countText(model, input, approximate);
  if (Array.isArray(input) && input.every((x) => typeof x === 'string')) return countText(model, input.join('\n'), approximate);
  if (Array.isArray(input)) return countChat(model, input, undefined, approximate);
  return input == null ? 0 : countText(model, JSON.stringify(input), approximate);
}
