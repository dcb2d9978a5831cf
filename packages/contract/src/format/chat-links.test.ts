import { describe, expect, it } from 'vitest';
import { buildChatLinks, DEFAULT_CHAT_CLIENT, fillChatLink, parseChatLinks, withKeyPrefix } from './chat-links.js';

describe('chat links', () => {
  it('uses the four defaults when nothing is configured, sorted by descending sort', () => {
    const links = buildChatLinks({});
    expect(links.map((l) => l.sort)).toEqual([4, 3, 2, 1]);
    expect(links.filter((l) => l.show).map((l) => l.name)).toContain(DEFAULT_CHAT_CLIENT);
    expect(buildChatLinks({ visibleOnly: true }).every((l) => l.show)).toBe(true);
    expect(buildChatLinks({ visibleOnly: true })).toHaveLength(2);
  });

  it('rebuilds the default client from the site chat_link, forced visible, key placeholder unprefixed', () => {
    const links = buildChatLinks({ chatLink: 'https://chat.example.com/' });
    const next = links.find((l) => l.name === DEFAULT_CHAT_CLIENT)!;
    expect(next.url).toBe('https://chat.example.com/#/?settings={"key":"{key}","url":"{server}"}');
    expect(fillChatLink(next.url, 'abc', 'https://hub.example.com')).toBe(
      'https://chat.example.com/#/?settings={"key":"sk-abc","url":"https%3A%2F%2Fhub.example.com"}',
    );
  });

  it('leaves configured links alone even with a chat_link, and sorts unsorted entries last', () => {
    const chatLinks = JSON.stringify([
      { name: 'a', url: 'https://a/{key}', show: true },
      { name: 'b', url: 'https://b/{key}', show: false, sort: 1 },
      { name: 'c', url: 'https://c/{key}', show: true, sort: 9 },
    ]);
    const links = buildChatLinks({ chatLinks, chatLink: 'https://x' });
    expect(links.map((l) => l.name)).toEqual(['c', 'b', 'a']);
    expect(links[0].url).toBe('https://c/{key}');
    expect(buildChatLinks({ chatLinks, visibleOnly: true }).map((l) => l.name)).toEqual(['c', 'a']);
  });

  it('treats broken or empty JSON as not configured', () => {
    expect(parseChatLinks('')).toBeNull();
    expect(parseChatLinks('{oops')).toBeNull();
    expect(parseChatLinks('[]')).toBeNull();
    expect(parseChatLinks('[{"name":1}]')).toBeNull();
    expect(buildChatLinks({ chatLinks: 'nonsense' })).toHaveLength(4);
  });

  it('replaces every placeholder and adds sk- exactly once', () => {
    expect(withKeyPrefix('sk-abc')).toBe('sk-abc');
    expect(fillChatLink('x://{key}/{key}?s={server}', 'sk-abc', 'h:1')).toBe('x://sk-abc/sk-abc?s=h%3A1');
  });

  it('base64-encodes base64<[…]> segments after filling them', () => {
    const url = fillChatLink('app://import?data=base64<[{"k":"{key}"}]>', 'k1', 's');
    expect(url).toBe(`app://import?data=${btoa('{"k":"sk-k1"}')}`);
  });
});
