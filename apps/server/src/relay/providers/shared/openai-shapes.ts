import { randomUUID } from 'node:crypto';
import type { HubDelta, HubFinishReason, HubResponse, HubToolCall } from '../../formats/openai/types.js';
import { readOpenAIUsage } from '../openai-compatible/usage.js';
import type { Frame, StreamMapper, Usage } from '../types.js';

export const chatId = () => `chatcmpl-${randomUUID().replaceAll('-', '')}`;
export const callId = () => `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

export function usageJson(prompt: number, completion: number, reasoning = 0) {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(reasoning ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
  };
}

/** A chat.completion answer with one choice. */
export function chatAnswer(a: {
  id?: string;
  model: string;
  created?: number;
  content: string;
  reasoning?: string;
  toolCalls?: HubToolCall[];
  finish: HubFinishReason;
  usage?: ReturnType<typeof usageJson>;
}): HubResponse {
  const message: HubResponse['choices'][number]['message'] = { role: 'assistant', content: a.content };
  if (a.reasoning) message.reasoning_content = a.reasoning;
  if (a.toolCalls?.length) message.tool_calls = a.toolCalls;
  return {
    id: a.id || chatId(),
    object: 'chat.completion',
    created: a.created ?? Math.floor(Date.now() / 1000),
    model: a.model,
    choices: [{ index: 0, message, finish_reason: a.finish }],
    ...(a.usage ? { usage: a.usage } : {}),
  };
}

/** An unnamed SSE frame (a plain string frame would inherit the upstream event name). */
const plain = (value: unknown): Frame => ({ event: '', data: typeof value === 'string' ? value : JSON.stringify(value) });

/**
 * Builds an OpenAI chat chunk stream from a provider's own events: each provider
 * mapper feeds deltas, the finish reason and usage; this keeps the ids, the text
 * for local counting, the usage chunk (only when the caller asked) and `[DONE]`.
 */
export class ChunkStream {
  private id = chatId();
  private readonly created = Math.floor(Date.now() / 1000);
  private roleSent = false;
  private parts: string[] = [];
  private usageRaw: ReturnType<typeof usageJson> | null = null;
  private done = false;

  /** `model`: shown in chunks until upstream names its own. */
  constructor(
    private readonly forwardUsage: boolean,
    private model = '',
  ) {}

  identify(id?: string, model?: string): void {
    if (id) this.id = id;
    if (model) this.model = model;
  }

  delta(delta: HubDelta, finish: HubFinishReason | null = null): Frame[] {
    if (typeof delta.content === 'string') this.parts.push(delta.content);
    if (delta.reasoning_content) this.parts.push(delta.reasoning_content);
    for (const call of delta.tool_calls ?? []) if (call.function?.arguments) this.parts.push(call.function.arguments);
    const d = this.roleSent ? delta : { role: 'assistant' as const, ...delta };
    this.roleSent = true;
    return [plain({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta: d, finish_reason: finish }] })];
  }

  finish(reason: HubFinishReason): Frame[] {
    return this.delta({}, reason);
  }

  setUsage(prompt: number, completion: number, reasoning = 0): void {
    this.usageRaw = usageJson(prompt, completion, reasoning);
  }

  /** Upstream sent its final event. */
  end(): void {
    this.done = true;
  }

  mapper(onEvent: (data: string, event?: string) => Frame[]): StreamMapper {
    return {
      onEvent,
      usage: () => (this.usageRaw ? readOpenAIUsage(this.usageRaw) : null) as Usage | null,
      text: () => this.parts.join(''),
      ended: () => this.done,
      finish: () => {
        const usage = this.forwardUsage && this.usageRaw ? [plain({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [], usage: this.usageRaw })] : [];
        return [...usage, plain('[DONE]')];
      },
    };
  }
}

/** Float vectors as OpenAI's base64 encoding (little-endian float32), which the official SDKs request by default. */
export function encodeEmbedding(vector: number[], format: unknown): number[] | string {
  if (format !== 'base64') return vector;
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

/** An OpenAI embeddings answer. */
export function embeddingsAnswer(model: string, vectors: number[][], promptTokens: number, format: unknown) {
  return {
    object: 'list',
    model,
    data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encodeEmbedding(v, format) })),
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}
