/**
 * Token counting. Two speeds:
 * - `estimate*`: byte-length arithmetic (microseconds), used to size the quota hold;
 * - `count*`: the real BPE tokenizer (o200k for the GPT-4o generation and later, cl100k
 *   otherwise), loaded lazily, used only when upstream reports no usage.
 */
import type { countTokens as CountFn } from 'gpt-tokenizer/encoding/o200k_base';
import { hash } from 'node:crypto';
import { imageTokens } from './image-tokens.js';

type Encoders = { o200k: typeof CountFn; cl100k: typeof CountFn };
let encoders: Encoders | undefined;
let loading: Promise<Encoders> | undefined;

/** Loads both encoders once (they are large: kept out of memory until first needed). */
export function loadTokenizer(): Promise<Encoders> {
  loading ??= Promise.all([import('gpt-tokenizer/encoding/o200k_base'), import('gpt-tokenizer/encoding/cl100k_base')]).then(([a, b]) => {
    encoders = { o200k: a.countTokens, cl100k: b.countTokens };
    return encoders;
  });
  return loading;
}

function usesO200k(model: string): boolean {
  return /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d|chatgpt-4o|codex)/.test(model);
}

const BYTES_TO_TOKENS = 0.38;
/** The quick estimate for a text of `bytes` UTF-8 bytes. */
export const estimateBytes = (bytes: number) => Math.ceil(bytes * BYTES_TO_TOKENS);
const approx = (text: string) => estimateBytes(Buffer.byteLength(text));
/** The quick estimate of texts joined by newlines, without joining them. */
const approxParts = (parts: string[]) => estimateBytes(parts.reduce((bytes, part) => bytes + Buffer.byteLength(part), Math.max(0, parts.length - 1)));

/** Counts of long texts seen recently (agents resend the same history each turn), by encoder and digest. */
const counted = new Map<string, number>();
const CACHE_FROM_CHARS = 1024;
const CACHE_ENTRIES = 4096;

export async function countText(model: string, text: string, approximate = false): Promise<number> {
  if (!text) return 0;
  if (approximate) return approx(text);
  const enc = encoders ?? (await loadTokenizer());
  const o200k = usesO200k(model);
  if (text.length < CACHE_FROM_CHARS) return o200k ? enc.o200k(text) : enc.cl100k(text);
  const key = `${o200k ? 'o' : 'c'}${hash('sha1', text, 'base64')}`;
  const hit = counted.get(key);
  if (hit !== undefined) return hit;
  const n = o200k ? enc.o200k(text) : enc.cl100k(text);
  if (counted.size >= CACHE_ENTRIES) counted.delete(counted.keys().next().value!);
  counted.set(key, n);
  return n;
}

interface ChatMessage {
  role?: unknown;
  name?: unknown;
  content?: unknown;
  tool_calls?: unknown;
}

/** Tokens per image when the size is unknown: a high-detail 1024×1024 tile budget, not a download. */
export const IMAGE_TOKEN_ESTIMATE = 765;

type Part = { type?: string; text?: unknown; image_url?: string | { url?: string; detail?: string }; detail?: string };

/** Text of a message's content, plus its images' tokens (measured by the model's family when a model is given). */
function contentText(content: unknown, model?: string): { text: string; imageTokens: number } {
  if (typeof content === 'string') return { text: content, imageTokens: 0 };
  if (!Array.isArray(content)) return { text: content == null ? '' : JSON.stringify(content), imageTokens: 0 };
  let text = '';
  let images = 0;
  for (const part of content as Part[]) {
    if ((part?.type === 'text' || part?.type === 'input_text') && typeof part.text === 'string') text += `${part.text}\n`;
    else if (part?.type === 'image_url' || part?.type === 'input_image') {
      const ref = part.image_url;
      const url = typeof ref === 'string' ? ref : ref?.url;
      const detail = typeof ref === 'object' ? ref?.detail : part.detail;
      images += model ? imageTokens(model, url, detail) : IMAGE_TOKEN_ESTIMATE;
    }
  }
  return { text, imageTokens: images };
}

/** Chat messages as text parts (one text when joined by newlines) plus fixed overhead: +3 per message, +1 per name, +3 overall (relay.md §4.4). */
function chatParts(messages: unknown, tools?: unknown, model?: string): { parts: string[]; overhead: number } {
  if (!Array.isArray(messages)) return { parts: [], overhead: 0 };
  let overhead = 3;
  const texts: string[] = [];
  for (const m of messages as ChatMessage[]) {
    overhead += 3;
    if (typeof m?.role === 'string') texts.push(m.role);
    if (typeof m?.name === 'string') {
      texts.push(m.name);
      overhead += 1;
    }
    const c = contentText(m?.content, model);
    texts.push(c.text);
    overhead += c.imageTokens;
    if (m?.tool_calls) texts.push(JSON.stringify(m.tool_calls));
  }
  if (tools) texts.push(JSON.stringify(tools));
  return { parts: texts, overhead };
}

export function estimateChat(messages: unknown, tools?: unknown): number {
  const { parts, overhead } = chatParts(messages, tools);
  return overhead + approxParts(parts);
}

/** Counted part by part, so long parts a caller sends again (an agent's history) come from the cache. */
export async function countChat(model: string, messages: unknown, tools?: unknown, approximate = false): Promise<number> {
  const { parts, overhead } = chatParts(messages, tools, model);
  if (approximate) return overhead + approxParts(parts);
  let total = overhead;
  for (const part of parts) total += await countText(model, part);
  return total;
}

/** An `input` field as text: a string, a list of strings, chat-like items, or anything serialised. */
function inputText(input: unknown, model?: string): { text: string; overhead: number } {
  if (typeof input === 'string') return { text: input, overhead: 0 };
  if (Array.isArray(input) && input.every((x) => typeof x === 'string')) return { text: input.join('\n'), overhead: 0 };
  if (Array.isArray(input)) {
    const { parts, overhead } = chatParts(input, undefined, model);
    return { text: parts.join('\n'), overhead };
  }
  return { text: input == null ? '' : JSON.stringify(input), overhead: 0 };
}

export function estimateInput(input: unknown): number {
  const { text, overhead } = inputText(input);
  return overhead + approx(text);
}

export async function countInput(model: string, input: unknown, approximate = false): Promise<number> {
  const { text, overhead } = inputText(input, model);
  return overhead + (await countText(model, text, approximate));
}
