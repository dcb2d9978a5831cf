import { describe, expect, it } from 'vitest';
import { createSseReader, errorMessage, readChunk } from './sse';

describe('chat stream reading', () => {
  it('joins events split across reads and skips comments', () => {
    const r = createSseReader();
    expect(r.push(': keep-alive\n\ndata: {"a"')).toEqual([]);
    expect(r.push(':1}\r\n\r\ndata: [DONE]\n')).toEqual(['{"a":1}']);
    expect(r.push('\n')).toEqual(['[DONE]']);
  });

  it('joins multi-line data fields', () => {
    expect(createSseReader().push('data: one\ndata: two\n\n')).toEqual(['one\ntwo']);
  });

  it('reads content, reasoning, usage, errors and the end', () => {
    expect(readChunk('{"choices":[{"delta":{"content":"Hi"}}]}')).toEqual({ content: 'Hi', reasoning: '', done: false, usage: undefined });
    expect(readChunk('{"choices":[{"delta":{"reasoning_content":"hmm"}}]}').reasoning).toBe('hmm');
    expect(readChunk('{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}').usage).toEqual({ prompt_tokens: 3, completion_tokens: 4 });
    expect(readChunk('{"error":{"message":"upstream cut"}}')).toMatchObject({ done: true, error: 'upstream cut' });
    expect(readChunk('[DONE]').done).toBe(true);
    expect(readChunk('not json')).toEqual({ content: '', reasoning: '', done: false });
  });

  it('words a failed answer with the gateway message', () => {
    expect(errorMessage(403, '{"error":{"message":"token quota exhausted","type":"one_hub_error"}}')).toBe('token quota exhausted');
    expect(errorMessage(502, 'Bad gateway')).toBe('Bad gateway');
    expect(errorMessage(500, '')).toBe('HTTP 500');
  });

  it('reads the gateway\'s own no-channel text back in the reader\'s language, keeping the request id', async () => {
    const { default: i18n } = await import('../../lib/i18n');
    await i18n.changeLanguage('en_US');
    await i18n.loadNamespaces('server-text');
    const body = JSON.stringify({ error: { message: '当前分组 vip 下对于模型 gpt-x 无可用渠道 (request id: 2026abc)', type: 'one_hub_error', code: 'model_not_found' } });
    expect(errorMessage(503, body)).toBe('No channel is available for model gpt-x in group vip (request id: 2026abc)');
    expect(readChunk(body).error).toBe('No channel is available for model gpt-x in group vip (request id: 2026abc)');
    expect(errorMessage(400, '{"error":{"message":"upstream said no"}}')).toBe('upstream said no');
  });
});
