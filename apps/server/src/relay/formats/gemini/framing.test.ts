import { describe, expect, it } from 'vitest';
import { createJsonArrayFramer, GEMINI_BLOCK_NONE_SAFETY } from './framing.js';

describe('Gemini JSON-array stream framing', () => {
  it('concatenated frames parse as one JSON array', () => {
    const f = createJsonArrayFramer();
    const text = [f.frame({ a: 1 }), f.frame({ b: 2 }), f.end()].join('');
    expect(text).toBe('[{"a":1},\r\n{"b":2}]');
    expect(JSON.parse(text)).toEqual([{ a: 1 }, { b: 2 }]);
  });
  it('an empty stream is an empty array', () => {
    expect(JSON.parse(createJsonArrayFramer().end())).toEqual([]);
  });
  it('block-none safety covers five categories', () => {
    expect(GEMINI_BLOCK_NONE_SAFETY.map((s) => s.threshold)).toEqual(Array(5).fill('BLOCK_NONE'));
  });
});
