import { describe, expect, it } from 'vitest';
import { jumpTarget } from './jump-target';

describe('jump target', () => {
  it.each([
    ['opencat://team/join?x=1', 'opencat://team/join?x=1'],
    ['ama://set-api-key?key=k', 'ama://set-api-key?key=k'],
    ['https://evil.example', null],
    ['javascript:alert(1)', null],
    [null, null],
  ])('%s → %s', (url, target) => expect(jumpTarget(url)).toBe(target));
});
