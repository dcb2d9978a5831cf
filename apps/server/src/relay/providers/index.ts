import { CHANNEL_TYPE_BY_ID } from '@one-hub/contract';
import type { ProviderAdapter } from './types.js';
import { openAICompatible } from './openai-compatible/index.js';
import { anthropic } from './anthropic/index.js';
import { gemini } from './gemini/index.js';
import { bedrock } from './bedrock/index.js';
import { vertex } from './vertex/index.js';
import { FAMILY_ADAPTERS } from './openai-family/index.js';
import { ollama } from './ollama/index.js';
import { cohere } from './cohere/index.js';
import { ali } from './ali/index.js';
import { hunyuan } from './hunyuan/index.js';
import { baidu } from './baidu/index.js';
import { stability } from './stability/index.js';
import { replicate } from './replicate/index.js';
import { coze } from './coze/index.js';
import { azureSpeech } from './azure-speech/index.js';

/** The registry: the only file that lists providers. */
const ADAPTERS: ProviderAdapter[] = [openAICompatible, anthropic, gemini, bedrock, vertex, ...FAMILY_ADAPTERS, ollama, cohere, ali, hunyuan, baidu, stability, replicate, coze, azureSpeech];

const BY_TYPE = new Map<number, ProviderAdapter>();
for (const adapter of ADAPTERS) for (const type of adapter.types) BY_TYPE.set(type, adapter);

/** The adapter for a channel type; unknown types are treated as OpenAI-compatible (they need a base URL). */
export function adapterFor(type: number): ProviderAdapter | undefined {
  const known = BY_TYPE.get(type);
  if (known) return known;
  return CHANNEL_TYPE_BY_ID.has(type) ? undefined : openAICompatible;
}

export function defaultBaseUrl(type: number): string {
  return CHANNEL_TYPE_BY_ID.get(type)?.baseUrl ?? '';
}
