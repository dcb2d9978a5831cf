/** Chat-client links (console-spec §3, §5; console-screens §8). */
export interface ChatLink {
  name: string;
  url: string;
  show: boolean;
  sort?: number;
}

/** The name of the default chat web client whose URL the site `chat_link` rebuilds. */
export const DEFAULT_CHAT_CLIENT = 'ChatGPT Next';

export const DEFAULT_CHAT_LINKS: readonly ChatLink[] = [
  { name: DEFAULT_CHAT_CLIENT, url: 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{server}"}', show: true, sort: 1 },
  { name: 'ChatGPT Web & Midjourney', url: 'https://vercel.ddaiai.com/#/?settings={"key":"{key}","url":"{server}"}', show: true, sort: 2 },
  { name: 'AMA 问天', url: 'ama://set-api-key?server={server}&key={key}', show: false, sort: 3 },
  { name: 'OpenCat', url: 'opencat://team/join?domain={server}&token={key}', show: false, sort: 4 },
];

/** Parses the site's `chat_links` JSON text; anything unreadable or empty answers null. */
export function parseChatLinks(text: string | undefined | null): ChatLink[] | null {
  if (!text || !text.trim()) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return null;
    const links = value.filter(
      (v): v is ChatLink => typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.url === 'string',
    );
    return links.length ? links.map((l) => ({ ...l, show: l.show !== false })) : null;
  } catch {
    return null;
  }
}

export interface ChatLinkSource {
  /** Site info `chat_links` (JSON text); empty means the defaults. */
  chatLinks?: string | null;
  /** Site info `chat_link`: a NextChat deployment that replaces the default client's URL. */
  chatLink?: string | null;
  /** Keep only entries with `show` true (the playground). */
  visibleOnly?: boolean;
}

/** The order links are offered in everywhere (token menus, playground, settings grid): descending `sort`, unsorted last. */
export function sortChatLinks<T extends { sort?: number | null }>(links: T[]): T[] {
  return links.sort((a, b) => (b.sort ?? -Infinity) - (a.sort ?? -Infinity));
}

/** The links to offer: configured or defaults, chat_link applied, sorted by descending `sort` (unsorted last). */
export function buildChatLinks(src: ChatLinkSource): ChatLink[] {
  const configured = parseChatLinks(src.chatLinks);
  let links = (configured ?? DEFAULT_CHAT_LINKS).map((l) => ({ ...l }));
  const base = src.chatLink?.trim().replace(/\/+$/, '');
  if (!configured && base) {
    const i = links.findIndex((l) => l.name === DEFAULT_CHAT_CLIENT);
    if (i >= 0) links[i] = { ...links[i], url: `${base}/#/?settings={"key":"{key}","url":"{server}"}`, show: true };
  }
  if (src.visibleOnly) links = links.filter((l) => l.show);
  return sortChatLinks(links);
}

/** `sk-` once: keys that already carry the prefix are left alone. */
export function withKeyPrefix(key: string): string {
  return key.startsWith('sk-') ? key : `sk-${key}`;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * Fills a link template: every `{key}` becomes `sk-<key>` (prefix applied once) and every `{server}`
 * the URL-encoded server address; `base64<[ … ]>` segments are filled, then base64-encoded.
 */
export function fillChatLink(template: string, key: string, server: string): string {
  const fill = (s: string) => s.replaceAll('{key}', withKeyPrefix(key)).replaceAll('{server}', encodeURIComponent(server));
  return fill(template.replace(/base64<\[(.*?)\]>/g, (_m, inner: string) => base64(fill(inner))));
}
