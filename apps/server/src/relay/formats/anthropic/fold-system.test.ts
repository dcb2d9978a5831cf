import { describe, expect, it } from 'vitest';
import { foldStraySystem } from './fold-system.js';

const user = { role: 'user', content: 'hi' };
const stray = (content: unknown) => ({ role: 'system', content });

describe('foldStraySystem', () => {
  it('returns a body without system turns as the same object (its bytes go out as received)', () => {
    const body = { model: 'm', system: 'top', messages: [user] };
    expect(foldStraySystem(body)).toBe(body);
  });

  it.each([
    ['no top-level system', undefined, [stray('a'), stray([{ type: 'text', text: 'b' }])], 'a\nb'],
    ['a string system stays a string', 'top', [stray('a')], 'top\na'],
    ['a cached stray block makes text blocks', 'top', [stray([{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }])], [{ type: 'text', text: 'top' }, { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }]],
    ['blocks stay blocks, strays appended in order', [{ type: 'text', text: 'top' }], [stray('a'), stray('b')], [{ type: 'text', text: 'top' }, { type: 'text', text: 'a' }, { type: 'text', text: 'b' }]],
  ])('%s', (_name, system, strays, expected) => {
    const out = foldStraySystem({ model: 'm', ...(system === undefined ? {} : { system }), messages: [user, strays[0], { role: 'assistant', content: 'ok' }, ...strays.slice(1)] });
    expect(out.system).toEqual(expected);
    expect(out.messages).toEqual([user, { role: 'assistant', content: 'ok' }]);
  });

  it('refuses a system turn that is not text', () => {
    expect(() => foldStraySystem({ messages: [user, stray(42)] })).toThrow('messages.1.content: must be a string or an array of text blocks');
  });
});
