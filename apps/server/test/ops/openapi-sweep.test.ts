import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSchemas, TEXT_MAX } from '@one-hub/contract';
import { ApiClient, ROOT_PASSWORD, startTestServer, type TestServer } from '../harness.js';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { FakeLeakyUpstream, LEAK_MARKERS, LeakyUpstream } from '../fakes/leaky-upstream.js';
import { collect } from '../relay/ws-events.js';
import { doorRequests, MODELS, multipartBody, type DoorRequest } from './sweep-doors.js';
import { FakeMidjourney } from '../fakes/midjourney.js';
import { relayState } from '../../src/relay/state.js';
import { checkOpenApi31, fastifyRoutes, norm, openApiToFastify } from './openapi-check.js';

/**
 * The sweep (architecture.md "The sweep"): every operation of the served description gets the
 * hostile basics — a common user on admin doors, NUL and over-long strings in every string
 * parameter, and for the relay a leaky upstream behind it. No answer may be a 5xx (but a
 * documented one: the relay doors' 502, 503 and 504), name a private host, carry a channel key, or give admin data to a non-admin.
 */

type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Json;
  relay: boolean;
}
interface Case {
  what: string;
  method: string;
  url: string;
  body?: unknown;
  as: 'root' | 'cookie' | 'access' | 'key';
  /** The answer must be a 4xx (hostile strings, a common user on an admin door). */
  expect4xx?: number[];
}

/** One channel per family, each key recognisable (a multi-line key and a `|` pair among them). */
const KEYS = {
  openai: 'sk-sweep-openai-SECRET-1\nsk-sweep-openai-SECRET-1b',
  anthropic: 'sweep-claude-SECRET-3',
  gemini: 'sweep-gemini-SECRET-4',
  midjourney: 'sweep-mj-SECRET-5',
  suno: 'sweep-suno-SECRET-6',
  kling: 'sweep-kling-access-7|sweep-kling-secret-8',
  recraft: 'sweep-recraft-SECRET-9',
};
/** Each key line and each `|` part: none may reach an answer, a frame or any log view. */
const CHANNEL_KEYS = Object.values(KEYS).flatMap((k) => k.split(/[\n|]/));
const NUL = 'bad\u0000value';

function operations(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) out.push({ method: method.toUpperCase(), path, op, relay: !path.startsWith('/api/') });
  }
  return out;
}

/** A minimal value a schema accepts (first choice of unions, required keys only). */
function sample(schema: Json | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return sample(choice.find((c: Json) => c.type !== 'null') ?? choice[0], depth + 1);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Json) => sample(s, depth + 1)));
  const type = [schema.type].flat()[0];
  if (type === 'string') return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object' || schema.properties) {
    return Object.fromEntries((schema.required ?? []).map((k: string) => [k, sample(schema.properties?.[k], depth + 1)]));
  }
  return undefined;
}

/** The string fields of a body schema, one level into objects, with their own maxLength. */
function stringFields(schema: Json | undefined, prefix: string[] = [], depth = 0): { at: string[]; max?: number }[] {
  if (!schema || depth > 1) return [];
  const out: { at: string[]; max?: number }[] = [];
  for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
    const variants: Json[] = prop.anyOf ?? prop.oneOf ?? [prop];
    const str = variants.find((v) => [v.type].flat().includes('string'));
    if (str) out.push({ at: [...prefix, name], max: str.maxLength });
    const obj = variants.find((v) => v.properties);
    if (obj) out.push(...stringFields(obj, [...prefix, name], depth + 1));
  }
  return out;
}

function withField(base: unknown, at: string[], value: unknown): unknown {
  const copy: Json = { ...(base as Json) };
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] = { ...(node[key] ?? {}) };
  node[at[at.length - 1]] = value;
  return copy;
}

const RELAY_BODY = {
  model: 'sweep-model',
  messages: [{ role: 'user', content: 'hello' }],
  max_tokens: 16,
  prompt: 'hello',
  input: 'hello',
  contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
};

/** A path value each door accepts, so the case reaches its handler (and the upstream behind it). */
function defaultParam(name: string, o: Operation): string {
  if (o.relay && name === 'model') return 'sweep-model:generateContent';
  const known: Record<string, string> = { mode: 'mj-relax', kind: 'imagine', class: 'videos', path: 'sweep', version: 'v1beta' };
  if (name === 'action') return o.path.startsWith('/suno/') ? 'music' : 'text2video';
  return known[name] ?? '1';
}

function url(o: Operation, pathValues: Record<string, string> = {}, query: Record<string, string> = {}): string {
  const path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? defaultParam(name, o)));
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

function baseBody(o: Operation): unknown {
  if (!o.op.requestBody) return undefined;
  return o.relay ? RELAY_BODY : (sample(o.op.requestBody.content?.['application/json']?.schema) ?? {});
}

/** NUL and over-long in every path, query and body string; plus a NUL in an undeclared filter. */
function hostileCases(o: Operation, over: boolean): Case[] {
  const as = o.relay ? 'key' : 'root';
  const cases: Case[] = [];
  const body = baseBody(o);
  const add = (what: string, u: string, b: unknown) => cases.push({ what, method: o.method, url: u, body: b, as, expect4xx: [] });
  for (const p of o.op.parameters ?? []) {
    const max = p.schema?.maxLength ?? (p.in === 'path' ? 1000 : TEXT_MAX);
    if (p.in === 'path') {
      add(`NUL in path ${p.name}`, url(o, { [p.name]: NUL }), body);
      if (over) add(`over-long path ${p.name}`, url(o, { [p.name]: 'x'.repeat(max + 1) }), body);
    } else if (p.in === 'query' && [p.schema?.type].flat().includes('string')) {
      add(`NUL in query ${p.name}`, url(o, {}, { [p.name]: NUL }), body);
      if (over) add(`over-long query ${p.name}`, url(o, {}, { [p.name]: 'x'.repeat(max + 1) }), body);
    }
  }
  add('NUL in an undeclared query filter', url(o, {}, { after: NUL, keyword: NUL }), body);
  if (!o.relay) {
    const fields = stringFields(o.op.requestBody?.content?.['application/json']?.schema);
    // Only JSON can carry a lone surrogate (a URL's percent-decoding turns one into U+FFFD).
    if (fields.length) add(`lone surrogate in body ${fields[0].at.join('.')}`, url(o), withField(body, fields[0].at, 'bad\uD800value'));
    for (const field of fields) {
      add(`NUL in body ${field.at.join('.')}`, url(o), withField(body, field.at, NUL));
      if (over) add(`over-long body ${field.at.join('.')}`, url(o), withField(body, field.at, 'x'.repeat((field.max ?? TEXT_MAX) + 1)));
    }
  }
  return cases;
}

/** `hostile`: strings and roles; `nul`: the NUL cases alone. */
type Sweep = 'hostile' | 'nul';

function sweepCases(o: Operation, sweep: Sweep): Case[] {
  const cases = hostileCases(o, sweep === 'hostile');
  if (sweep === 'hostile' && (o.op['x-min-role'] ?? 0) >= 10) {
    for (const as of ['cookie', 'access'] as const) cases.push({ what: `common user (${as}) on an admin door`, method: o.method, url: url(o), body: baseBody(o), as, expect4xx: [401, 403] });
  }
  return cases;
}

interface Actors {
  root: ApiClient;
  common: ApiClient;
  accessToken: string;
  key: string;
  /** The key pinned to the OpenAI channel (the pass-through doors need a pin). */
  pinned: string;
}

/** The two leaky upstreams: model providers, and task families plus realtime. */
interface Upstreams {
  model: LeakyUpstream;
  task: FakeLeakyUpstream;
}

async function actors(server: TestServer, up?: Upstreams): Promise<Actors> {
  const root = new ApiClient(server.app);
  await root.login('root', ROOT_PASSWORD);
  const made = await root.post('/api/user/', { username: 'sweeper', password: 'sweeper-pass-1', display_name: 'sweeper' });
  expect(made.body.success, JSON.stringify(made.body)).toBe(true);
  const common = new ApiClient(server.app);
  const { id } = await common.login('sweeper', 'sweeper-pass-1');
  expect((await root.post(`/api/user/quota/${id}`, { quota: 100_000_000 })).body.success).toBe(true);
  const accessToken = (await common.get('/api/user/token')).body.data;
  expect(typeof accessToken).toBe('string');
  expect((await common.post('/api/token/', { name: 'sweep', unlimited_quota: true })).body.success).toBe(true);
  const key = `sk-${(await common.get('/api/token/')).body.data.data[0].key}`;
  let pinned = key;
  if (up) {
    const model = { base_url: up.model.url };
    const task = { base_url: up.task.url };
    const channels = [
      { type: 1, key: KEYS.openai, models: MODELS.openai.join(','), ...model },
      { type: 14, key: KEYS.anthropic, models: MODELS.anthropic.join(','), ...model },
      { type: 25, key: KEYS.gemini, models: MODELS.gemini.join(','), ...model },
      { type: 51, key: KEYS.recraft, models: MODELS.recraft.join(','), ...model },
      { type: 34, key: KEYS.midjourney, models: MODELS.midjourney.join(','), ...task },
      { type: 41, key: KEYS.suno, models: MODELS.suno.join(','), ...task },
      { type: 53, key: KEYS.kling, models: MODELS.kling.join(','), ...task },
      // Realtime: one upstream that sends an error event, one that refuses the handshake.
      { type: 1, key: KEYS.openai, models: 'sweep-realtime', ...task },
      { type: 1, key: KEYS.openai, models: 'sweep-realtime-down', ...model },
    ];
    for (const [i, c] of channels.entries()) {
      const res = await root.post('/api/channel/', { name: `leaky-${i}`, group: 'default', ...c });
      expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    }
    await relayState(server.ctx).selector.reload();
    const openai = await server.ctx.db.selectFrom('channels').select('id').where('name', '=', 'leaky-0').executeTakeFirstOrThrow();
    expect((await root.post('/api/token/', { name: 'sweep-admin', unlimited_quota: true })).body.success).toBe(true);
    const own = (await root.get('/api/token/')).body.data.data as Json[];
    pinned = `sk-${own.find((t) => t.name === 'sweep-admin')?.key}#${openai.id}#ignore`;
  }
  return { root, common, accessToken, key, pinned };
}

async function send(server: TestServer, a: Actors, c: Case) {
  const headers: Record<string, string> = c.as === 'key' ? { authorization: `Bearer ${a.key}`, 'mj-api-secret': a.key } : c.as === 'access' ? { authorization: a.accessToken } : {};
  const client = c.as === 'root' ? a.root : c.as === 'cookie' ? a.common : new ApiClient(server.app);
  const res = await client.request(c.method as 'GET', c.url, c.body, headers);
  return { status: res.status, text: res.raw.payload };
}

/** Every text no caller may see: the private hosts, each key part, and the leaky upstreams' own host:port. */
let markers: string[] = [...LEAK_MARKERS, ...CHANNEL_KEYS];
const leakIn = (text: string) => markers.find((m) => text.includes(m));

/** What is wrong with one answer, or undefined. */
function verdict(c: Pick<Case, 'what' | 'expect4xx'>, o: Operation, status: number, text: string): string | undefined {
  if (status >= 500 && !o.op.responses?.[String(status)]) return `${status}: ${text.slice(0, 200)}`;
  const secret = leakIn(text);
  if (secret) return `answer names ${secret}: ${text.slice(0, 200)}`;
  if (c.expect4xx && (status < 400 || status >= 500)) return `expected a 4xx, got ${status}: ${text.slice(0, 200)}`;
  if (c.expect4xx?.length && !c.expect4xx.includes(status)) return `expected ${c.expect4xx.join('/')}, got ${status}: ${text.slice(0, 200)}`;
  if (/^(NUL|lone surrogate)/.test(c.what) && status === 400 && !o.relay && !/NUL/.test(text)) return `400 without naming the NUL: ${text.slice(0, 200)}`;
  return undefined;
}

async function runSweep(server: TestServer, a: Actors, ops: Operation[], sweep: Sweep): Promise<{ count: number; failures: string[] }> {
  const failures: string[] = [];
  let count = 0;
  for (const o of ops) {
    for (const c of sweepCases(o, sweep)) {
      count++;
      const { status, text } = await send(server, a, c);
      const bad = verdict(c, o, status, text);
      if (bad) failures.push(`${o.method} ${o.path} [${c.what}, as ${c.as}] ${bad}`);
    }
  }
  return { count, failures };
}

/** Why a relay operation has no upstream to reach, and the status it answers instead. */
const NO_UPSTREAM: Array<[RegExp, string, number?]> = [
  [/^GET .*\/models(\/\{model\})?$/, 'answered from the gateway\'s own model list'],
  [/dashboard\/billing/, 'the gateway\'s own billing view'],
  [/^GET .*(task\/\{id\}\/(fetch|image-seed)|\/mj\/image\/\{id\}|\/suno\/fetch\/\{id\}|\/(image2video|text2video)\/\{id\}|\/task\/result\/)/, 'a task that does not exist', 404],
  [/^(GET|DELETE) \/v1\/videos\/\{id\}|^POST \/v1\/videos\/\{id\}\/remix/, 'a video that does not exist', 404],
  [/^GET \/v1\/videos$/, 'the caller\'s own videos, from the gateway\'s records'],
  [/^(GET|DELETE) \/v1\/responses\/\{id\}|^POST \/v1\/responses\/\{id\}\/cancel|^GET \/v1\/responses\/\{id\}\/input_items/, 'a stored response that does not exist (test/doors/responses-stored covers owned ones)', 404],
  [/^(GET|DELETE) (\/claude)?\/v1\/messages\/batches\/\{id\}|^POST (\/claude)?\/v1\/messages\/batches\/\{id\}\/cancel|^GET (\/claude)?\/v1\/messages\/batches\/\{id\}\/results/, 'a message batch that does not exist (test/doors/message-batches covers owned ones)', 404],
  [/^(GET|DELETE) \/v1(beta)?\/interactions\/\{id\}|^POST \/v1(beta)?\/interactions\/\{id\}\/cancel/, 'an interaction that does not exist (test/doors/gemini-interactions covers owned ones)', 404],
  [/^GET (\/claude)?\/v1\/messages\/batches$/, 'the caller\'s own message batches, from the gateway\'s records'],
  [/list-by-condition|^POST \/suno\/fetch$/, 'answered from the gateway\'s task records'],
  [/\/mj\/notify$/, 'an upstream callback, refused for a caller\'s key'],
  [/^GET \/v1\/realtime$/, 'a WebSocket door: swept with a socket below'],
  [/^GET \/v1\/responses$/, 'the Responses WebSocket door: each turn runs as POST /v1/responses (swept here); plain HTTP is a 426', 426],
  [/^(GET|POST|DELETE) \/mcp(\/\{server\})?$/, 'the MCP gateway: no MCP server is registered in the sweep (test/mcp/gateway.test.ts calls real upstream MCP servers)'],
];

async function sendDoor(server: TestServer, a: Actors, method: string, r: DoorRequest) {
  const key = r.pinned ? a.pinned : a.key;
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'mj-api-secret': key };
  let payload: string | Buffer | undefined;
  if (r.multipart) {
    const m = multipartBody(r.multipart);
    payload = m.payload;
    headers['content-type'] = m.contentType;
  } else if (r.body) {
    payload = JSON.stringify(r.body);
    headers['content-type'] = 'application/json';
  }
  const res = await server.app.inject({ method: method as 'POST', url: r.url, headers, payload });
  return { status: res.statusCode, text: res.payload };
}

/** Each relay operation's minimal valid requests, with the leaky upstreams behind them. */
async function runLeaky(server: TestServer, a: Actors, ops: Operation[], up: Upstreams) {
  const hits = () => up.model.received.length + up.task.hits;
  const failures: string[] = [];
  const unreachable: string[] = [];
  let requests = 0;
  let reached = 0;
  for (const o of ops.filter((x) => x.relay)) {
    const name = `${o.method} ${o.path}`;
    const door = doorRequests(o);
    if (!door.length) {
      const why = NO_UPSTREAM.find(([re]) => re.test(name));
      if (!why) {
        failures.push(`${name}: no sample request and no reason it cannot reach an upstream`);
        continue;
      }
      const before = hits();
      const { status, text } = await sendDoor(server, a, o.method, { what: why[1], url: url(o), body: baseBody(o) as Json | undefined });
      requests++;
      const bad = verdict({ what: why[1] }, o, status, text) ?? (hits() > before ? 'contacted the upstream' : undefined) ?? (why[2] && status !== why[2] ? `expected ${why[2]}, got ${status}: ${text.slice(0, 200)}` : undefined);
      if (bad) failures.push(`${name} [${why[1]}] ${bad}`);
      unreachable.push(`${name} (${why[1]}: ${status})`);
      continue;
    }
    let saw = false;
    for (const r of door) {
      const before = hits();
      const { status, text } = await sendDoor(server, a, o.method, r);
      requests++;
      if (hits() > before) saw = true;
      else if (!r.local) failures.push(`${name} [${r.what}] did not reach the upstream: ${status} ${text.slice(0, 200)}`);
      // A pinned request is an admin's: hosts may stay in its text, keys never.
      const bad = r.pinned ? (status >= 500 && !o.op.responses?.[String(status)] ? `${status}: ${text.slice(0, 200)}` : CHANNEL_KEYS.find((k) => text.includes(k))) : verdict({ what: r.what }, o, status, text);
      if (bad) failures.push(`${name} [${r.what}${r.stream ? ', stream' : ''}] ${bad}: ${text.slice(0, 200)}`);
    }
    if (saw) reached++;
  }
  return { requests, reached, unreachable, failures };
}

describe('OpenAPI description and the sweep of every operation', () => {
  let server: TestServer;
  let up: Upstreams;
  let doc: Json;
  let ops: Operation[];
  let a: Actors | undefined;
  beforeAll(async () => {
    up = { model: new LeakyUpstream(), task: new FakeLeakyUpstream() };
    await Promise.all([up.model.start(), up.task.start()]);
    markers = [...markers, new URL(up.model.url).host, new URL(up.task.url).host];
    server = await startTestServer('sqlite');
    const res = await new ApiClient(server.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    ops = operations(doc);
  });
  afterAll(async () => {
    await server?.destroy();
    await up?.model.close();
    await up?.task.close();
  });

  it('is a valid OpenAPI 3.1 document', () => {
    expect(checkOpenApi31(doc)).toEqual([]);
  });

  it('documents exactly the registered routes (an undocumented one fails the sweep)', () => {
    const registered = fastifyRoutes(server.app.printRoutes({ commonPrefix: false }));
    const documented = new Set(ops.map((o) => `${o.method} ${openApiToFastify(o.path)}`));
    // Fastify's `all` also answers QUERY, which OpenAPI 3.1 cannot describe; the SPA, the document itself and its reader are not operations.
    const expected = [...registered].filter((r) => !r.startsWith('QUERY ') && !/ (\/\*|\/|\/api\/openapi\.json|\/api\/docs(\/.*)?)$/.test(r));
    expect(expected.length).toBeGreaterThan(150);
    expect(expected.filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !registered.has(r))).toEqual([]);
    for (const door of ['GET /v1/realtime', 'POST /v1/chat/completions', 'POST /v1/responses', 'POST /v1/messages', 'POST /v1beta/models/:model', 'GET /api/status', 'POST /api/user/login']) {
      const [method, path] = door.split(' ');
      expect(documented.has(`${method} ${norm(path)}`), door).toBe(true);
    }
  });

  it('takes request bodies, queries and roles from the contract and the guards', () => {
    expect(doc.paths['/api/token/'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('name');
    expect(doc.paths['/api/log/'].get.parameters.map((p: Json) => p.name)).toEqual(expect.arrayContaining(['log_type', 'start_timestamp', 'model_name']));
    expect(doc.paths['/api/option/'].put.requestBody.content['application/json'].schema.required).toEqual(['key', 'value']);
    expect(doc.paths['/v1/chat/completions'].post.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/option/'].get['x-min-role']).toBe(100);
    expect(doc.paths['/api/channel/'].get['x-min-role']).toBe(10);
    expect(doc.paths['/api/user/login'].post['x-min-role']).toBeUndefined();
    for (const key of Object.keys(apiSchemas())) {
      const [method, u] = key.split(' ');
      const found = [u, u.replace(/\/$/, '')].some((v) => server.app.hasRoute({ method: method as 'GET', url: v }));
      expect(found, key).toBe(true);
    }
  });

  it('answers NUL, over-long strings and a common user on admin doors with a 4xx, on every operation (SQLite)', async () => {
    a = await actors(server, up);
    const started = Date.now();
    const { count, failures } = await runSweep(server, a, ops, 'hostile');
    console.log(`sweep (sqlite): ${ops.length} operations × hostile basics = ${count} requests in ${Date.now() - started} ms; ${failures.length} failing`);
    expect(count).toBeGreaterThan(ops.length * 2);
    expect(failures).toEqual([]);
  });

  it('sends every relay and task door a valid request: the leaky upstream behind it sees it, and no key or host comes back', async () => {
    a ??= await actors(server, up);
    const started = Date.now();
    const relayOps = ops.filter((o) => o.relay);
    const { requests, reached, unreachable, failures } = await runLeaky(server, a, ops, up);
    console.log(`sweep (sqlite, leaky upstream): ${relayOps.length} relay operations × door samples = ${requests} requests in ${Date.now() - started} ms; ${reached} operations reached the upstream; ${failures.length} failing`);
    console.log(`no upstream to reach (${unreachable.length}):\n  ${unreachable.join('\n  ')}`);
    expect(failures).toEqual([]);
    expect(reached + unreachable.length).toBe(relayOps.length);
  });

  it('keeps keys and hosts out of realtime frames and a refused handshake, and logs the refusal', async () => {
    a ??= await actors(server, up);
    const base = (await server.listen()).replace('http', 'ws');
    const dial = (model: string) => new WebSocket(`${base}/v1/realtime?model=${model}`, { headers: { authorization: `Bearer ${a!.key}` } });
    const ws = dial('sweep-realtime');
    const frames = collect(ws);
    await once(ws, 'open');
    const [error] = await frames.waitFor('error');
    expect(error, JSON.stringify(frames.events)).toBeDefined();
    expect(leakIn(JSON.stringify(frames.events))).toBeUndefined();
    ws.close();
    await frames.closed;

    const refused = dial('sweep-realtime-down');
    refused.on('error', () => {});
    const [, res] = (await once(refused, 'unexpected-response')) as [unknown, IncomingMessage];
    let body = '';
    for await (const chunk of res) body += chunk;
    expect(doc.paths['/v1/realtime'].get.responses[String(res.statusCode)], `${res.statusCode} ${body}`).toBeDefined();
    expect(leakIn(body), body).toBeUndefined();
    const requestId = /\(request id: (\w+)\)/.exec(body)?.[1];
    expect(requestId, body).toBeTruthy();

    // The handshake's failure has its error row, as the HTTP doors' have: the owner reads the generic reason.
    await relayState(server.ctx).recorder.flush();
    const own = (await a.common.get('/api/log/self?log_type=5')).body.data.data as Json[];
    expect(own.map((r) => r.request_id)).toContain(requestId);
  });

  it('keeps keys and hosts out of the user\'s own log and task records afterwards; the admin\'s view holds no key', async () => {
    a ??= await actors(server, up);
    await relayState(server.ctx).recorder.flush();
    const views = ['/api/log/self?page_size=100', '/api/log/self?log_type=5&page_size=100', '/api/task/self?page_size=100', '/api/mj/self?page_size=100'];
    for (const view of views) {
      const res = await a.common.get(view);
      expect(res.body.success, `${view} ${res.raw.payload.slice(0, 200)}`).toBe(true);
      expect(leakIn(res.raw.payload), `${view}: ${res.raw.payload.slice(0, 400)}`).toBeUndefined();
    }
    const own = (await a.common.get('/api/log/self?log_type=5&page_size=100')).body.data.data as Json[];
    expect(own.length).toBeGreaterThan(0);
    for (const view of ['/api/log/?log_type=5&page_size=100', '/api/task/?page_size=100', '/api/mj/?page_size=100']) {
      const text = (await a.root.get(view)).raw.payload;
      const key = CHANNEL_KEYS.find((k) => text.includes(k));
      expect(key, `${view} names a key`).toBeUndefined();
    }
  });

  it('lets an admin\'s channel check stream the leaky upstream\'s text with its hosts but none of its keys', async () => {
    a ??= await actors(server, up);
    const rows = await server.ctx.db.selectFrom('channels').select(['id', 'models']).where('name', 'in', ['leaky-0', 'leaky-1', 'leaky-2']).execute();
    for (const row of rows) {
      const res = await a.root.post('/api/sse/channel/check', { id: row.id, models: String(row.models).split(',')[0] });
      expect(res.status).toBe(200);
      expect(res.raw.payload).toContain('internal-llm.corp.local'); // the admin may see where it failed
      expect(CHANNEL_KEYS.find((k) => res.raw.payload.includes(k)), res.raw.payload.slice(0, 600)).toBeUndefined();
    }
  });

  it.runIf(Boolean(process.env.TEST_POSTGRES_DSN))('refuses NUL with a 4xx on PostgreSQL too, and stores a relay prompt holding one', async () => {
    const pgServer = await startTestServer('postgres');
    const mj = new FakeMidjourney();
    await mj.start();
    mj.behave('mj-secret', {});
    try {
      const pa = await actors(pgServer);
      const started = Date.now();
      const { count, failures } = await runSweep(pgServer, pa, ops, 'nul');
      console.log(`sweep (postgres, NUL only): ${count} requests in ${Date.now() - started} ms; ${failures.length} failing`);
      expect(failures).toEqual([]);

      // A relay body is the user's content: forwarded as sent, stored with U+FFFD for the NUL.
      expect((await pa.root.post('/api/channel/', { type: 34, name: 'mj', key: 'mj-secret', base_url: mj.url, group: 'default', models: 'mj_imagine' })).body.success).toBe(true);
      await relayState(pgServer.ctx).selector.reload();
      const res = await pgServer.app.inject({ method: 'POST', url: '/mj/submit/imagine', headers: { 'mj-api-secret': pa.key }, payload: { prompt: 'a\u0000cat' } });
      expect(res.statusCode, res.payload).toBe(200);
      expect(mj.received.at(-1)?.body.prompt).toBe('a\u0000cat');
      const task = await pgServer.app.inject({ method: 'GET', url: `/mj/task/${res.json().result}/fetch`, headers: { 'mj-api-secret': pa.key } });
      expect(task.json().prompt).toBe('a\uFFFDcat');
    } finally {
      await pgServer.destroy();
      await mj.close();
    }
  });
});
