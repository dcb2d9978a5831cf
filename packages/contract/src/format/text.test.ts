import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isCleanText, refusedTextPath, text, TEXT_MAX } from './text.js';

describe('text', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones', () => {
    expect(isCleanText('plain, 中文, 😀')).toBe(true);
    expect(isCleanText('a\u0000b')).toBe(false);
    expect(isCleanText('a\uD800b')).toBe(false);
    expect(isCleanText('a\uDE00')).toBe(false);
  });

  it('names the field and caps every string', () => {
    const schema = z.object({ name: text().trim().max(10) });
    expect(schema.safeParse({ name: ' ok ' }).data).toEqual({ name: 'ok' });
    const issue = schema.safeParse({ name: 'x\u0000' }).error?.issues[0];
    expect(issue?.path).toEqual(['name']);
    expect(issue?.message).toMatch(/NUL/);
    expect(text().safeParse('x'.repeat(TEXT_MAX + 1)).success).toBe(false);
  });

  it('finds the first refused string inside a value, keys included', () => {
    expect(refusedTextPath({ a: ['ok', { b: 'x\u0000' }] })).toBe('a.1.b');
    expect(refusedTextPath({ ['k\u0000']: 1 })).toBe('k\uFFFD');
    expect(refusedTextPath('\uD800', 'path')).toBe('path');
    expect(refusedTextPath({ a: 1, b: new Uint8Array([0]) })).toBeUndefined();
  });
});
