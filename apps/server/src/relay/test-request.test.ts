import { describe, expect, it } from 'vitest';
import { adapterFor } from './providers/index.js';
import { testRequest } from './test-request.js';

describe('channel test requests (relay.md §7.1)', () => {
  it.each([
    [1, 'gpt-4o-mini', 'chat/completions'],
    [1, 'text-embedding-3-small', 'embeddings'],
    [1, 'dall-e-3', 'images/generations'],
    [1, 'o3-mini', 'responses'],
    [28, 'o1-like', 'chat/completions'], // no Responses API: tested on chat
    [47, 'jina-embeddings-v3', 'embeddings'],
    [37, 'sd3', 'images/generations'], // named like a chat model, but the type only draws
    [14, 'claude-sonnet-4-5', 'chat/completions'], // converted to Messages
  ] as const)('type %i model %s → %s', (type, model, endpoint) => {
    expect(testRequest(model, adapterFor(type)!).endpoint).toBe(endpoint);
  });

  it('sends the spec bodies and refuses model kinds that cannot be tested', () => {
    expect(testRequest('bge-m3', adapterFor(1)!).body).toEqual({ model: 'bge-m3', input: 'hi' });
    expect(testRequest('flux-dev', adapterFor(1)!).body).toEqual({ model: 'flux-dev', prompt: 'A cute cat', n: 1 });
    for (const model of ['tts-1', 'whisper-1', 'mj_imagine', 'chirp-v3', 'jina-reranker-v2']) {
      expect(() => testRequest(model, adapterFor(1)!)).toThrow('不支持的模型类型');
    }
  });
});
