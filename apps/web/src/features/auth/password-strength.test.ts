import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password-strength';

describe('password strength', () => {
  it.each([
    ['', 0],
    ['abc', 1],
    ['abcdefgh', 1],
    ['abcdefg1', 2],
    ['Abcdefg1', 3],
    ['Abcdefg1!long', 4],
  ])('%s scores %d', (pw, score) => expect(passwordStrength(pw)).toBe(score));
});
