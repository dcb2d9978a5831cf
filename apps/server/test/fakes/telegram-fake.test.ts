import { describe, expect, it } from 'vitest';
import { checkMarkup } from './telegram.js';

/** The fake Bot API refuses markup Telegram refuses, so the bot's plain-text fallback is really exercised. */
describe('fake Telegram markup check', () => {
  it.each([
    ['MarkdownV2', '*bold* _it_ __under__ ~del~ ||spoiler|| `code` [link](https://x.example/a) 1\\.5 \\- ok'],
    ['MarkdownV2', '> quoted line\n*b*'],
    ['Markdown', '*bold* _it_ `code` ```block``` [link](https://x.example) 1.5 - ok!'],
    ['html', '<b>b</b> <i>i</i> <a href="https://x.example">l</a> <code>&lt;tag&gt;</code> &amp; &#39;'],
    ['HTML', '<tg-spoiler>s</tg-spoiler>'],
  ])('accepts valid %s', (mode, text) => {
    expect(() => checkMarkup(text, mode)).not.toThrow();
  });

  it.each([
    ['MarkdownV2', 'price 1.5', "Character '.' is reserved"],
    ['MarkdownV2', 'a-b', "Character '-' is reserved"],
    ['MarkdownV2', '*never closed', "Can't find end of * entity"],
    ['Markdown', '_open', "Can't find end of the entity starting at byte offset 0"],
    ['html', '<blink>x</blink>', 'Unsupported start tag "blink"'],
    ['html', '<b>x</i>', 'Unexpected end tag'],
    ['html', 'a & b', "Can't find end of the entity"],
    ['html', '<b>open', "Can't find end tag corresponding to start tag \"b\""],
    ['Markdown3', 'x', 'unsupported parse_mode'],
  ])('refuses %s %j', (mode, text, why) => {
    expect(() => checkMarkup(text, mode)).toThrow(why);
  });
});
