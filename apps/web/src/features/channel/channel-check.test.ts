import { describe, expect, it } from 'vitest';
import { checkable, parseSse, passed } from './channel-check';

describe('channel check stream', () => {
  it('parses complete events and keeps the unfinished rest', () => {
    const text = 'event: message\ndata: {"type":"heartbeat","data":"ping"}\n\nevent: message\r\ndata: {"type":"result","data":{"model":"m","checks":[]}}\r\n\r\nevent: message\ndata: {"type":"do';
    const { events, rest } = parseSse(text);
    expect(events).toEqual([{ type: 'heartbeat', data: 'ping' }, { type: 'result', data: { model: 'm', checks: [] } }]);
    expect(rest).toBe('event: message\ndata: {"type":"do');
    expect(parseSse(`${rest}ne","data":"completed"}\n\n`).events).toEqual([{ type: 'done', data: 'completed' }]);
    expect(parseSse(': comment\n\ndata: not json\n\n').events).toEqual([]);
  });

  it('passes a model unless a check failed, and picks the provider models worth checking', () => {
    expect(passed({ model: 'm', checks: [{ name: 'basic', status: 1, remark: '', raw: '' }, { name: 'image', status: 2, remark: '', raw: '' }] })).toBe(true);
    expect(passed({ model: 'm', checks: [{ name: 'tools', status: 0, remark: '', raw: '' }] })).toBe(false);
    expect(checkable(['gpt-4o', 'gpt-4-all', 'gpt-4o-realtime-preview', 'gpt-3.5-turbo-instruct', 'chatgpt-4o-latest', 'gemini-2.5-pro', 'claude-3-5-haiku', 'dall-e-3', 'text-embedding-3-small'])).toEqual([
      'gpt-4o',
      'chatgpt-4o-latest',
      'gemini-2.5-pro',
      'claude-3-5-haiku',
    ]);
  });
});
