/**
 * Built-in prices, seeded into an empty `prices` table. Ratio 1 = USD 0.002 per
 * 1K tokens (USD 2 per million); `times` prices charge 1000 × input per call.
 * [model, owner channel type, input, output]
 */
export type PriceSeed = [string, number, number, number, ('tokens' | 'times')?];

export const DEFAULT_PRICES: PriceSeed[] = [
  ['gpt-4o', 1, 1.25, 5],
  ['gpt-4o-mini', 1, 0.075, 0.3],
  ['gpt-4.1', 1, 1, 4],
  ['gpt-4.1-mini', 1, 0.2, 0.8],
  ['gpt-4.1-nano', 1, 0.05, 0.2],
  ['gpt-5', 1, 0.625, 5],
  ['gpt-5-mini', 1, 0.125, 1],
  ['gpt-5-nano', 1, 0.025, 0.2],
  ['o3', 1, 1, 4],
  ['o4-mini', 1, 0.55, 2.2],
  ['gpt-4-turbo', 1, 5, 15],
  ['gpt-4', 1, 15, 30],
  ['gpt-3.5-turbo', 1, 0.25, 0.75],
  ['text-embedding-3-small', 1, 0.01, 0],
  ['text-embedding-3-large', 1, 0.065, 0],
  ['text-embedding-ada-002', 1, 0.05, 0],
  ['omni-moderation-latest', 1, 0, 0],
  ['text-moderation-latest', 1, 0, 0],
  ['whisper-1', 1, 15, 15],
  ['tts-1', 1, 7.5, 0],
  ['tts-1-hd', 1, 15, 0],
  ['dall-e-3', 1, 20, 0, 'times'],
  ['dall-e-2', 1, 8, 0, 'times'],
  ['gpt-image-1', 1, 2.5, 20],
  ['claude-opus-4-1', 14, 7.5, 37.5],
  ['claude-sonnet-4-5', 14, 1.5, 7.5],
  ['claude-3-5-haiku-latest', 14, 0.4, 2],
  ['gemini-2.5-pro', 25, 0.625, 5],
  ['gemini-2.5-flash', 25, 0.15, 1.25],
  ['gemini-2.0-flash', 25, 0.05, 0.2],
  ['deepseek-chat', 28, 0.135, 0.55],
  ['deepseek-reasoner', 28, 0.275, 1.095],
  ['moonshot-v1-8k', 29, 0.857, 0.857],
  ['mistral-large-latest', 30, 1, 3],
  ['mistral-small-latest', 30, 0.1, 0.3],
  ['grok-4', 56, 1.5, 7.5],
  ['grok-3-mini', 56, 0.15, 0.25],
];

/** Used when no price row matches: USD 0.06 per 1K tokens each way (relay.md §4.2). */
export const FALLBACK_PRICE = { type: 'tokens' as const, input: 30, output: 30 };
