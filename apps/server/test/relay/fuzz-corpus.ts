/**
 * A deterministic corpus of malformed requests, made by mutating valid base requests
 * with a seeded PRNG (mulberry32), so a failure reproduces from its index.
 */
import { prng } from '../../bench/prng.js';

export type Auth = 'none' | 'user' | 'root' | 'key';

export interface FuzzRequest {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  auth: Auth;
  /** A JSON value, or raw text when `raw` is set. */
  body?: unknown;
  raw?: string;
  contentType?: string;
}

/** Stands for 20 000 nested arrays, spliced into the JSON text (JSON.stringify would recurse that deep). */
const DEEP = '\u0001deep';
const DEEP_TEXT = '['.repeat(20_000) + ']'.repeat(20_000);

const nest = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

/** Values put in place of a field: wrong types, nulls, extremes, garbage. */
const BAD_VALUES: Array<() => unknown> = [
  () => null,
  () => [],
  () => ({}),
  () => [[[[]]]],
  () => [null, null],
  () => 1e308,
  () => -1,
  () => -1e308,
  () => 2 ** 60,
  () => 9007199254740993,
  () => 0.5,
  () => 'NaN',
  () => 'Infinity',
  () => '-0',
  () => '',
  () => 'x'.repeat(100_000),
  () => '\u0000\ud800\uffff\u202e💥ﾟ',
  () => true,
  () => 42,
  () => ({ type: 42, text: null }),
  () => [{ type: null }],
  () => [42, 'x', null],
  () => JSON.parse(nest(60, '[', ']')),
  () => DEEP,
  () => JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}'),
];

/** Every path to a value inside a JSON value. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push([...prefix, i], ...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push([...prefix, k], ...paths(v, [...prefix, k]));
  return out;
}

function setAt(root: unknown, path: Array<string | number>, value: unknown, remove = false): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** Mutations of the whole request rather than one field. */
const WHOLE: Array<(base: FuzzRequest) => Partial<FuzzRequest>> = [
  () => ({ raw: '{"model": "x", "messages": [', body: undefined }),
  () => ({ raw: '', body: undefined }),
  () => ({ raw: 'null', body: undefined }),
  () => ({ raw: '[1,2,3]', body: undefined }),
  () => ({ raw: '12345', body: undefined }),
  () => ({ raw: '"just a string"', body: undefined }),
  () => ({ raw: nest(20_000, '[', ']'), body: undefined }),
  () => ({ raw: `{"a":${nest(20_000, '{"a":', '}', '1')}}`, body: undefined }),
  () => ({ raw: '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}', body: undefined }),
  (b) => ({ raw: JSON.stringify(b.body ?? {}), contentType: 'text/plain' }),
  (b) => ({ raw: JSON.stringify(b.body ?? {}), contentType: 'application/x-www-form-urlencoded' }),
  () => ({ raw: '\xff\xfe\u0000garbage\u0000', body: undefined }),
];

const BAD_QUERY = ['-1', '1e309', 'abc', 'NaN', '', '%00', '[]', '99999999999999999999', '\u202e', '1;DROP TABLE logs'];

/** Mutates a GET URL's query values (and adds stray ones). */
function mutateQuery(url: string, rand: () => number): string {
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  const keys = [...params.keys(), 'p', 'size', 'type'];
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const key = pick(keys);
  params.set(key, pick(BAD_QUERY));
  if (rand() < 0.3) params.append(key, pick(BAD_QUERY));
  return `${path}?${params.toString()}`;
}

/** `count` mutations of each base, deterministic for a seed. */
export function buildCorpus(bases: FuzzRequest[], perBase: number, seed = 20): FuzzRequest[] {
  const rand = prng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const out: FuzzRequest[] = [];
  for (const base of bases) {
    for (let i = 0; i < perBase; i++) {
      const name = `${base.method} ${base.url} #${i}`;
      if (base.method === 'GET') {
        out.push({ ...base, name, url: mutateQuery(base.url, rand) });
        continue;
      }
      // An update's id is left alone: a valid but different id is another object, not bad input.
      const fieldPaths = paths(base.body).filter((p) => p.length > 1 || (p[0] !== 'model' && p[0] !== 'id'));
      const roll = rand();
      if (roll < 0.25 || fieldPaths.length === 0) {
        out.push({ ...base, name: `${name} whole`, ...pick(WHOLE)(base) });
      } else if (roll < 0.35) {
        const path = pick(fieldPaths);
        out.push({ ...base, name: `${name} drop ${path.join('.')}`, body: setAt(base.body, path, undefined, true) });
      } else {
        const path = pick(fieldPaths);
        const value = pick(BAD_VALUES)();
        const body = setAt(base.body, path, value);
        const deep = value === DEEP ? { raw: JSON.stringify(body).replace(JSON.stringify(DEEP), DEEP_TEXT) } : {};
        out.push({ ...base, name: `${name} ${path.join('.')}`, body, ...deep });
      }
    }
  }
  // The model field gets only wrong types: an unknown model name is a routing answer (503), not bad input.
  for (const base of bases.filter((b) => b.body && typeof b.body === 'object' && 'model' in (b.body as object))) {
    for (const bad of [null, 42, [], {}, true]) out.push({ ...base, name: `${base.url} model=${JSON.stringify(bad)}`, body: setAt(base.body, ['model'], bad) });
  }
  return out;
}
