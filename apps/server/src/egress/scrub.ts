/**
 * Scrubbing of outside parties' texts (architecture.md "Boundaries every door passes"):
 * credentials always go; hosts, addresses, ports and URLs go for anyone but an admin.
 */

/** Key parts shorter than this are not secrets worth a search (and would mangle ordinary words). */
const MIN_SECRET = 4;
export const HIDDEN_HOST = '[upstream]';

/** Anything that looks like a credential, whoever configured it. */
export function scrubSecrets(text: string): string {
  return text
    .replace(/\b(sk|key|pk)-[A-Za-z0-9_-]{8,}/g, '$1-***')
    .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, 'Bearer ***')
    .replace(/\b(api[-_]?key|access[-_]?token|secret[-_]?key|password)(["']?\s*[:=]\s*["']?)[^\s"',;&]{6,}/gi, '$1$2***');
}

/** Every configured key of a channel: each line, and each `|` part of a line, longest first. */
export function secretsOf(key: string): string[] {
  const found = new Set<string>();
  for (const line of key.split('\n')) {
    const whole = line.trim();
    if (whole.length >= MIN_SECRET) found.add(whole);
    for (const part of whole.split('|')) if (part.trim().length >= MIN_SECRET) found.add(part.trim());
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** Removes the given keys and anything credential-like. */
export function scrubKeys(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) out = out.split(key).join('***');
  return scrubSecrets(out);
}

// Top-level domains a host name is recognised by. File extensions that are also country codes
// (.md, .sh, .py, .rs, .so, .pl …) are left out, so `README.md` or `main.py` stay as written.
const TLDS = [
  'com', 'net', 'org', 'edu', 'gov', 'mil', 'int', 'io', 'ai', 'dev', 'app', 'cloud', 'co', 'xyz', 'biz', 'me', 'tech', 'online',
  'site', 'top', 'vip', 'cc', 'tv', 'icu', 'network', 'systems', 'services', 'digital', 'cn', 'uk', 'de', 'jp', 'fr', 'ru', 'us',
  'ca', 'au', 'br', 'kr', 'hk', 'tw', 'sg', 'nl', 'eu', 'ch', 'se', 'es', 'vn', 'tr', 'za', 'mx', 'ar', 'dk', 'fi', 'cz', 'pt',
  'gr', 'il', 'nz', 'ua', 'th', 'ph', 'ie', 'hu', 'ro', 'kz', 'ae', 'sa',
  // private and reserved names
  'local', 'localhost', 'internal', 'intranet', 'corp', 'lan', 'localdomain', 'svc', 'cluster', 'arpa', 'test', 'example', 'invalid',
].join('|');

const PORT = '(?::\\d{1,5})?';
/** scheme://anything up to a space, quote or bracket. */
const URLS = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s"'`<>()[\]{}，。、；]+/gi;
const IPV6_BRACKETED = /\[[0-9a-f:.%]*:[0-9a-f:.%]*\](?::\d{1,5})?/gi;
/** Bare IPv6 candidates; kept only when they have `::` or eight groups (so `12:30:45` stays). */
const IPV6_BARE = /(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}(?:[0-9a-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])(?:%[\w.]+)?/gi;
const IPV4 = new RegExp(`(?<![\\w.])(?:\\d{1,3}\\.){3}\\d{1,3}${PORT}(?!\\w|\\.\\d)`, 'g');
const HOSTS = new RegExp(`(?<![\\w.-])(?:\\*\\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+(?:${TLDS}|xn--[a-z0-9-]{2,59})${PORT}(?![\\w-]|\\.[a-z0-9])`, 'gi');
/** Single-label `name:port` (docker service names, `localhost:3000`); prose words before a number are not hosts. */
const NAME_PORT = /(?<![\w.:/-])([a-z][a-z0-9-]*):(\d{2,5})\b(?![.:]\d)/gi;
const NOT_HOSTS = new Set(['line', 'lines', 'code', 'status', 'port', 'error', 'errno', 'position', 'pos', 'offset', 'column', 'col', 'index', 'id', 'step', 'attempt', 'retry', 'time', 'at', 'row', 'char', 'byte', 'size', 'limit', 'max', 'min', 'count', 'total', 'page', 'http', 'https', 'version', 'v', 'tokens', 'seconds', 'ms']);
const PORT_WORDS = /\b(port)\s+\d{2,5}\b/gi;

function isIpv6(candidate: string): boolean {
  const address = candidate.split('%')[0];
  return address.includes('::') ? /[0-9a-f]/i.test(address) : address.split(':').length === 8;
}

/** Removes every URL, host name, IPv4/IPv6 address and port from a text; ordinary prose stays. */
export function scrubHosts(text: string): string {
  return text
    .replace(URLS, HIDDEN_HOST)
    .replace(IPV6_BRACKETED, HIDDEN_HOST)
    .replace(IPV6_BARE, (m) => (isIpv6(m) ? HIDDEN_HOST : m))
    .replace(IPV4, (m) => (m.split(':')[0].split('.').every((n) => Number(n) <= 255) ? HIDDEN_HOST : m))
    .replace(HOSTS, HIDDEN_HOST)
    .replace(NAME_PORT, (m, name: string) => (NOT_HOSTS.has(name.toLowerCase()) ? m : HIDDEN_HOST))
    .replace(PORT_WORDS, '$1 [port]');
}

/** An outside party's text for someone who is (`admin`) or is not allowed to see where it came from. */
export function scrubText(text: string, keys: readonly string[], admin: boolean): string {
  const out = scrubKeys(text, keys);
  return admin ? out : scrubHosts(out);
}
