import {
  createAnthropicToHubStream, createGeminiToHubStream, createHubToAnthropicStream, createHubToGeminiStream, createHubToResponsesStream,
  reasoningOf, usageFromOpenAI, usageToOpenAI, withServiceTier, type AnthropicStreamEvent, type GeminiResponse, type HubChunk, type ResponsesRequest, type Usage,
} from '../formats/index.js';
import type { Dialect, Endpoint, Frame, StreamMapper } from '../providers/types.js';
import { billingUsageOrNull } from './usage.js';
import { parseFrame } from '../providers/shared/broken-frame.js';

export interface BridgeStreamOptions {
  door: Endpoint;
  dialect: Dialect;
  /** Model name shown to the caller. */
  model: string;
  request: Record<string, unknown>;
  /** Chat door: the caller asked for the usage chunk (stream_options.include_usage). */
  forwardUsage: boolean;
  /** Prompt estimate for Anthropic's message_start. */
  inputTokens: number;
}

interface UpstreamSide {
  push(data: string): HubChunk[];
  usage(): Usage | null;
  ended(): boolean;
}

interface DoorSide {
  push(chunk: HubChunk): Frame[];
  finish(usage: Usage | null): Frame[];
  fail(message: string): Frame[];
}

function upstreamSide(dialect: Dialect, model: string): UpstreamSide {
  let ended = false;
  if (dialect === 'anthropic') {
    const s = createAnthropicToHubStream({ model });
    return {
      push(data) {
        const event = parseFrame<AnthropicStreamEvent>(data);
        if (event.type === 'message_stop') ended = true;
        return s.push(event);
      },
      usage: () => s.usage(),
      ended: () => ended,
    };
  }
  if (dialect === 'gemini') {
    const s = createGeminiToHubStream({ model });
    return {
      push(data) {
        const chunk = parseFrame<GeminiResponse>(data);
        if (chunk.candidates?.some((c) => c.finishReason)) ended = true;
        return s.push(chunk);
      },
      usage: () => s.usage(),
      ended: () => ended,
    };
  }
  let usage: Usage | null = null;
  return {
    push(data) {
      if (data === '[DONE]') {
        ended = true;
        return [];
      }
      const chunk = parseFrame<HubChunk>(data);
      const seen = withServiceTier(usageFromOpenAI(chunk.usage), (chunk as { service_tier?: unknown }).service_tier);
      if (seen) usage = seen;
      return chunk.choices?.length ? [{ ...chunk, model }] : [];
    },
    usage: () => usage,
    ended: () => ended,
  };
}

const named = (events: Array<{ type: string }>): Frame[] => events.map((e) => ({ event: e.type, data: JSON.stringify(e) }));

function doorSide(o: BridgeStreamOptions): DoorSide {
  switch (o.door) {
    case 'messages': {
      const s = createHubToAnthropicStream({ model: o.model, inputTokens: o.inputTokens });
      return { push: (c) => named(s.push(c)), finish: (u) => named(s.finish(u ?? undefined)), fail: (message) => named(s.error({ message })) };
    }
    case 'responses': {
      const s = createHubToResponsesStream({ model: o.model, request: o.request as unknown as ResponsesRequest });
      return { push: (c) => named(s.push(c)), finish: (u) => named(s.finish(u ?? undefined)), fail: (message) => named(s.error({ message })) };
    }
    case 'generateContent': {
      const s = createHubToGeminiStream({ model: o.model });
      const json = (items: unknown[]) => items.map((i) => JSON.stringify(i));
      return { push: (c) => json(s.push(c)), finish: (u) => json(s.finish(u ?? undefined)), fail: (message) => json(s.error({ message, code: 502, status: 'UNAVAILABLE' })) };
    }
    default: {
      let last: HubChunk | undefined;
      return {
        push(c) {
          last = c;
          return [JSON.stringify(c)];
        },
        finish(u) {
          const usageChunk = o.forwardUsage && u && last ? [JSON.stringify({ ...last, choices: [], usage: usageToOpenAI(u) })] : [];
          return [...usageChunk, '[DONE]'];
        },
        fail: (message) => [JSON.stringify({ error: { message, type: 'upstream_error', code: 'stream_interrupted' } })],
      };
    }
  }
}

/** A stream mapper that converts a channel's dialect into the door's event sequence through hub chunks. */
export function createBridgeStream(o: BridgeStreamOptions): StreamMapper {
  const up = upstreamSide(o.dialect, o.model);
  const door = doorSide(o);
  const parts: string[] = [];
  return {
    onEvent(data) {
      const out: Frame[] = [];
      for (const chunk of up.push(data)) {
        for (const choice of chunk.choices ?? []) {
          const d = choice.delta;
          if (typeof d?.content === 'string') parts.push(d.content);
          const reasoning = reasoningOf(d);
          if (reasoning) parts.push(reasoning);
          for (const call of d?.tool_calls ?? []) if (call.function?.arguments) parts.push(call.function.arguments);
        }
        out.push(...door.push(chunk));
      }
      return out;
    },
    usage: () => billingUsageOrNull(up.usage(), o.dialect),
    text: () => parts.join(''),
    finish: () => door.finish(up.usage()),
    ended: () => up.ended(),
    fail: (message) => door.fail(message),
  };
}
