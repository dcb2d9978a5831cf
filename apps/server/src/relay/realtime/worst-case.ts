import type { RawData } from 'ws';
import { estimateBytes } from '../tokenizer.js';
import { ratioOf, reserveQuota, worstTier, type Price } from '../pipeline/accounting/pricing.js';

/**
 * Base64 characters of PCM16 24 kHz audio per input token, with a margin: 1 s of audio is 64,000
 * characters and about 10 tokens upstream, counted here as 40.
 */
const AUDIO_CHARS_PER_TOKEN = 1_600;

/** A client frame the gate looks at, read only when its type may matter (audio frames are never parsed). */
export interface ClientFrame {
  type?: string;
  event_id?: unknown;
  session?: { max_response_output_tokens?: unknown; max_output_tokens?: unknown };
  response?: { max_output_tokens?: unknown; max_response_output_tokens?: unknown };
}

/** `response.create` and `session.update` frames, parsed; anything else undefined. */
export function readFrame(data: RawData, isBinary: boolean): ClientFrame | undefined {
  if (isBinary || !Buffer.isBuffer(data) || !(data.includes('"response.create"') || data.includes('"session.update"'))) return undefined;
  try {
    const event = JSON.parse(data.toString()) as ClientFrame;
    return event && (event.type === 'response.create' || event.type === 'session.update') ? event : undefined;
  } catch {
    return undefined;
  }
}

/** An output cap as the Realtime API takes it: a positive number, or `"inf"` (none). */
export function outputCap(...values: unknown[]): number | 'inf' | undefined {
  for (const v of values) {
    if (v === 'inf') return 'inf';
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.ceil(v);
  }
  return undefined;
}

/** Input tokens a client frame may add to what the next response reads (audio appends by their length, other frames by their bytes). */
export function frameInput(data: RawData, isBinary: boolean): number {
  const bytes = Buffer.isBuffer(data) ? data.length : Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
  if (!isBinary && Buffer.isBuffer(data) && data.includes('"input_audio_buffer.append"')) return Math.ceil(bytes / AUDIO_CHARS_PER_TOKEN);
  return estimateBytes(bytes);
}

/**
 * The most one realtime response may cost: `input` tokens plus `output` tokens at the dearest tier,
 * each priced at the higher of its text and audio ratio (a response may be all audio either way).
 */
export function responseWorstCase(price: Price, groupRatio: number, input: number, output: number, preConsumed: number): number {
  const worst = worstTier(price);
  const audio: Price = {
    ...worst,
    input: worst.input * Math.max(1, ratioOf(worst, 'input_audio_tokens')),
    output: worst.output * Math.max(1, ratioOf(worst, 'output_audio_tokens')),
  };
  return reserveQuota(audio, groupRatio, input, output, preConsumed);
}
