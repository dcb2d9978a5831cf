import { describe, expect, it } from 'vitest';
import zhCN from './zh_CN.json';
import zhHK from './zh_HK.json';
import enUS from './en_US.json';
import jaJP from './ja_JP.json';

type Table = Record<string, string>;
const [zh_CN, zh_HK, en_US, ja_JP] = [zhCN, zhHK, enUS, jaJP] as Table[];

const locales: Record<string, Record<string, string>> = { zh_CN, zh_HK, en_US, ja_JP };
/** Product names read the same in every language. */
const SAME_EVERYWHERE = new Set(['menu.midjourney']);

describe('locales', () => {
  it('have exactly the same keys, all non-empty', () => {
    const keys = Object.keys(zh_CN).sort();
    for (const [name, table] of Object.entries(locales)) {
      expect(Object.keys(table).sort(), name).toEqual(keys);
      for (const k of keys) expect(table[k].trim(), `${name} ${k}`).not.toBe('');
    }
  });

  it('are translated, not copied from another language', () => {
    for (const k of Object.keys(zh_CN)) {
      if (SAME_EVERYWHERE.has(k)) continue;
      expect(en_US[k], `en_US ${k}`).not.toBe(zh_CN[k]);
      expect(ja_JP[k], `ja_JP ${k}`).not.toBe(en_US[k]);
      expect(/[\u4e00-\u9fff]/.test(en_US[k]), `en_US ${k} contains Chinese`).toBe(false);
    }
  });

  it('keep the same placeholders in every language', () => {
    for (const k of Object.keys(zh_CN)) {
      const vars = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
      for (const [name, table] of Object.entries(locales)) expect(vars(table[k]), `${name} ${k}`).toEqual(vars(zh_CN[k]));
    }
  });
});
