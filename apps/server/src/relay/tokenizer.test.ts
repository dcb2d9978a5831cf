import { describe, expect, it } from 'vitest';
import { countChat, estimateBytes, estimateChat, estimateInput } from './tokenizer.js';

describe('quick prompt estimate', () => {
  // 3 per conversation + 3 per message + 1 per name, plus 0.38 token per UTF-8 byte of the newline-joined text.
  it.each([
    { messages: [{ role: 'user', content: 'héllo' }], text: 'user\nhéllo', overhead: 6 },
    { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', name: 'ann', content: [{ type: 'text', text: '日本' }] }], text: 'system\nbe brief\nuser\nann\n日本\n', overhead: 10 },
    { messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] }], text: 'assistant\n\n[{"id":"c1"}]', overhead: 6 },
  ])('counts $text', ({ messages, text, overhead }) => {
    const want = overhead + estimateBytes(Buffer.byteLength(text));
    expect(estimateChat(messages)).toBe(want);
    expect(estimateInput(messages)).toBe(want);
  });

  it('matches the approximate count of the same messages', async () => {
    const messages = [{ role: 'user', content: 'x'.repeat(5000) }, { role: 'assistant', content: 'ok' }];
    expect(await countChat('gpt-4o', messages, undefined, true)).toBe(estimateChat(messages));
  });
});
