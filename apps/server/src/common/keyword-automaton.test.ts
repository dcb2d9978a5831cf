import { describe, expect, it } from 'vitest';
import { foldText, KeywordAutomaton } from './keyword-automaton.js';

describe('keyword automaton', () => {
  it.each([
    ['plain Latin', ['bomb'], 'how to build a bomb', 'bomb'],
    ['upper case', ['bomb'], 'A BOMB here', 'bomb'],
    ['full-width Latin', ['bomb'], 'ｂｏｍｂ', 'bomb'],
    ['a full-width word in the list', ['ＢＯＭＢ'], 'bomb', 'bomb'],
    ['CJK', ['炸弹'], '如何制作炸弹？', '炸弹'],
    ['half-width katakana', ['バクダン'], 'ﾊﾞｸﾀﾞﾝを作る', 'バクダン'],
    ['Cyrillic case', ['привет'], 'ПРИВЕТ мир', 'привет'],
    ['no match', ['bomb', '炸弹'], 'a harmless question', undefined],
    ['overlapping words (fail links)', ['abcd', 'bce'], 'xabce', 'bce'],
    ['word inside another word', ['she', 'he', 'hers'], 'ushers', 'she'],
    ['empty entries ignored', ['', '  '], 'anything', undefined],
  ])('%s', (_name, words, text, expected) => {
    expect(new KeywordAutomaton(words).find(text)).toBe(expected === undefined ? undefined : foldText(expected));
  });

  it('agrees with a naive search on random text', () => {
    const alphabet = 'abcab炸弹';
    const pick = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
    for (let round = 0; round < 200; round++) {
      const words = Array.from({ length: 5 }, () => pick(1 + Math.floor(Math.random() * 4)));
      const text = pick(30);
      const automaton = new KeywordAutomaton(words);
      expect(automaton.find(text) !== undefined).toBe(words.some((w) => text.includes(w)));
    }
  });

  it('scans a long text against thousands of words in one pass', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `forbidden${i}x`);
    const automaton = new KeywordAutomaton(words);
    const text = 'lorem ipsum dolor sit amet '.repeat(40_000) + 'forbidden4999x';
    const started = performance.now();
    expect(automaton.find(text)).toBe('forbidden4999x');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
