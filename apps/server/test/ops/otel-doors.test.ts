import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { doorFixture, type DoorFixture } from '../doors/fixture.js';
import { FakeRealtime } from '../fakes/realtime-upstream.js';
import { FakeSuno } from '../fakes/suno.js';
import { addPrices, pollers, until } from '../relay/task-fixture.js';
import { collect } from '../relay/ws-events.js';
import { startFakeMcp, type FakeMcp } from '../mcp/upstreams.js';
import { CLIENT, INTERNAL, parentHeader, Receiver, SERVER, STATUS_ERROR, type Decoded } from './otlp-receiver.js';

const PROMPT = 'the secret prompt of the doors 5c1e';

/** Spans of the doors outside the routed model request (issue 39.6): refusals, Realtime, tasks, batches, MCP, the Responses socket. */
describe('OpenTelemetry spans of the other doors', () => {
  const receiver = new Receiver();
  let f: DoorFixture;
  let realtime: FakeRealtime;
  let suno: FakeSuno;
  let mcp: FakeMcp;
  let key = '';
  const secrets: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    realtime = new FakeRealtime();
    suno = new FakeSuno();
    await Promise.all([realtime.start(), suno.start()]);
    mcp = await startFakeMcp('streamable');
    f = await doorFixture('sqlite', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TASK_POLL_INTERVAL_MS: '600000' });
    await f.unitPrice('door-model');
    await f.unitPrice('batch-claude');
    await f.addChannel({ key: 'door-openai-secret', models: 'door-model' });
    await f.addChannel({ key: 'door-rt-secret', base_url: realtime.url, models: 'rt-model' });
    await f.unitPrice('rt-model');
    suno.behave('door-suno-secret', {});
    await f.addChannel({ type: 41, key: 'door-suno-secret', base_url: suno.url, models: 'chirp-v3-0' });
    await addPrices(f, { 'chirp-v3-0': 0.5 });
    f.claude.acceptKeys = new Set(['door-batch-secret']);
    await f.addChannel({ type: 14, key: 'door-batch-secret', base_url: f.claude.url, models: 'batch-claude' });
    const added = await f.root.post('/api/mcp_server/', { groups: '', name: 'tools', url: `${mcp.url}/mcp` });
    expect(added.body.success).toBe(true);
    expect((await f.root.post(`/api/mcp_server/${added.body.data.id}/refresh`, {})).body.success).toBe(true);
    key = (await f.newUser({ quota: 10_000_000 })).key;
    secrets.push(key, key.replace(/^sk-/, ''), 'door-openai-secret', 'door-rt-secret', 'door-suno-secret', 'door-batch-secret');
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([receiver.close(), realtime?.close(), suno?.close(), mcp?.close()]);
  });

  /** The spans of one trace once `count` have been exported (a door span ends when its response has gone, so flushes are repeated). */
  const spansOf = (traceId: string, count: number) =>
    until(async () => {
      await f.server.ctx.tracer!.forceFlush();
      const found = receiver.spans.filter((s) => s.traceId === traceId);
      return found.length >= count ? found : undefined;
    }, `${count} spans of trace ${traceId}`);
  const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${f.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('a request refused before routing (a bad key, a malformed body) is one SERVER span with the status and error.type', async () => {
    const bad = parentHeader();
    const res = await post('/v1/chat/completions', JSON.stringify({ model: 'door-model', messages: [{ role: 'user', content: PROMPT }] }), { authorization: `Bearer sk-${'z'.repeat(48)}`, traceparent: bad.header });
    expect(res.status).toBe(401);
    const [span] = await spansOf(bad.traceId, 1);
    expect(span.name).toBe('POST /v1/chat/completions');
    expect(span.kind).toBe(SERVER);
    expect(span.parentSpanId).toBe(bad.spanId);
    expect(span.status?.code).toBe(STATUS_ERROR);
    expect(span.attrs).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/chat/completions', 'http.response.status_code': 401, 'gen_ai.request.model': 'door-model', 'one-hub.refused': true });
    expect(typeof span.attrs['error.type']).toBe('string');

    const malformed = parentHeader();
    expect((await post('/claude/v1/messages', '{"model": "door-model", ', { 'x-api-key': key, traceparent: malformed.header })).status).toBe(400);
    const [parsed] = await spansOf(malformed.traceId, 1);
    expect(parsed.name).toBe('POST /claude/v1/messages');
    expect(parsed.attrs).toMatchObject({ 'http.response.status_code': 400, 'error.type': 'invalid_json' });
  });

  it('the console is not traced, nor a path no door serves', async () => {
    const consoleCall = parentHeader();
    await fetch(`${f.url}/api/user/self`, { headers: { traceparent: consoleCall.header } });
    const nowhere = parentHeader();
    expect((await fetch(`${f.url}/v1/no-such-door`, { method: 'POST', headers: { traceparent: nowhere.header } })).status).toBe(404);
    // A marker request after them: once its span is exported, theirs would have been too.
    const marker = parentHeader();
    await post('/v1/chat/completions', '{}', { authorization: 'Bearer sk-nothing', traceparent: marker.header });
    await spansOf(marker.traceId, 1);
    expect(receiver.spans.filter((s) => s.traceId === consoleCall.traceId || s.traceId === nowhere.traceId).map((s) => s.name + ' ' + JSON.stringify(s.attrs))).toEqual([]);
  });

  it('a Realtime session is one SERVER span with its tokens, and each response a child span with its own', async () => {
    const tp = parentHeader();
    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-model`, { headers: { authorization: `Bearer ${key}`, traceparent: tp.header } });
    const events = collect(ws);
    await once(ws, 'open');
    ws.send(JSON.stringify({ type: 'response.create' }));
    await events.waitFor('response.done');
    ws.send(JSON.stringify({ type: 'response.create' }));
    await events.waitFor('response.done', 2);
    ws.close();
    await events.closed;
    const spans = await spansOf(tp.traceId, 3);
    const session = spans.find((s) => s.kind === SERVER)!;
    const responses = spans.filter((s) => s.kind === INTERNAL);
    expect(session.name).toBe('realtime rt-model');
    expect(session.parentSpanId).toBe(tp.spanId);
    expect(session.attrs).toMatchObject({
      'gen_ai.operation.name': 'realtime',
      'gen_ai.request.model': 'rt-model',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 20,
      'one-hub.close.code': 1000,
    });
    expect(typeof session.attrs['one-hub.channel.id']).toBe('number');
    expect(session.attrs['error.type']).toBeUndefined();
    expect(responses).toHaveLength(2);
    for (const r of responses) {
      expect(r.parentSpanId).toBe(session.spanId);
      expect(r.attrs).toMatchObject({ 'gen_ai.operation.name': 'realtime_response', 'gen_ai.usage.input_tokens': 20, 'gen_ai.usage.output_tokens': 10 });
      expect(typeof r.attrs['gen_ai.response.id']).toBe('string');
    }
  });

  it('a refused Realtime handshake is a failed session span', async () => {
    const tp = parentHeader();
    const ws = new WebSocket(`${f.url.replace('http', 'ws')}/v1/realtime?model=rt-model`, { headers: { authorization: `Bearer sk-${'q'.repeat(48)}`, traceparent: tp.header } });
    ws.on('error', () => {});
    const [, res] = await once(ws, 'unexpected-response');
    expect(res.statusCode).toBe(401);
    ws.terminate();
    const [span] = await spansOf(tp.traceId, 1);
    expect(span.status?.code).toBe(STATUS_ERROR);
    expect(span.attrs).toMatchObject({ 'http.response.status_code': 401, 'one-hub.refused': true });
  });

  it('a task submission (Suno) and a message batch are each one span with the model and the channel', async () => {
    const task = parentHeader();
    const res = await post('/suno/submit/music', JSON.stringify({ prompt: PROMPT, tags: 'pop' }), { authorization: `Bearer ${key}`, traceparent: task.header });
    expect((await res.json()).code).toBe('success');
    const taskSpans = await spansOf(task.traceId, 2);
    const submitted = taskSpans.find((s) => s.kind === SERVER)!;
    const upstreamCall = taskSpans.find((s) => s.kind === CLIENT)!;
    expect(upstreamCall.parentSpanId).toBe(submitted.spanId);
    expect(upstreamCall.attrs).toMatchObject({ 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'http.response.status_code': 200 });
    expect(submitted.attrs).toMatchObject({ 'gen_ai.operation.name': 'task_submit', 'gen_ai.request.model': 'chirp-v3-0', 'http.response.status_code': 200, 'one-hub.channel.type': 41 });
    expect(submitted.attrs['error.type']).toBeUndefined();
    // The poller's round that looked at it is a span of its own.
    expect(await pollers(f).suno.runNow()).toMatchObject({ tasks: 1 });
    const [round] = await until(async () => {
      await f.server.ctx.tracer!.forceFlush();
      const found = receiver.spans.filter((s) => s.name === 'task_poll suno');
      return found.length ? found : undefined;
    }, 'the poll span');
    expect(round.kind).toBe(INTERNAL);
    expect(round.attrs).toMatchObject({ 'gen_ai.operation.name': 'task_poll', 'one-hub.poll.tasks': 1, 'one-hub.poll.upstream_calls': 1 });
    // …and its upstream fetch a CLIENT child of that round, timed inside it.
    const fetches = receiver.spans.filter((s) => s.parentSpanId === round.spanId);
    expect(fetches).toHaveLength(1);
    expect(fetches[0].kind).toBe(CLIENT);
    expect(fetches[0].attrs).toMatchObject({ 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'http.response.status_code': 200 });

    const batch = parentHeader();
    const created = await f.anthropic(key).messages.batches.create(
      { requests: [{ custom_id: 'one', params: { model: 'batch-claude', max_tokens: 50, messages: [{ role: 'user', content: PROMPT }] } }] },
      { headers: { traceparent: batch.header } },
    );
    expect(created.type).toBe('message_batch');
    const batchSpans = await spansOf(batch.traceId, 2);
    expect(batchSpans.find((s) => s.kind === CLIENT)!.attrs).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200 });
    const span = batchSpans.find((s) => s.kind === SERVER)!;
    expect(span.attrs).toMatchObject({ 'gen_ai.operation.name': 'batch_submit', 'gen_ai.request.model': 'batch-claude', 'http.response.status_code': 200, 'one-hub.channel.type': 14 });
  });

  it('an MCP tools/call is one span naming the server and the tool; a failing tool call has error.type', async () => {
    const call = (name: string, tp: string) =>
      post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { text: PROMPT } } }), {
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
        'mcp-protocol-version': '2026-07-28',
        traceparent: tp,
      });
    const ok = parentHeader();
    expect((await call('tools__echo', ok.header)).status).toBe(200);
    const [span] = await spansOf(ok.traceId, 1);
    expect(span.name).toBe('tools/call echo');
    expect(span.attrs).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo', 'one-hub.mcp.server': 'tools', 'one-hub.mcp.status': 'ok' });
    expect(span.attrs['error.type']).toBeUndefined();

    await mcp.close(); // the upstream is gone: the next call fails
    const down = parentHeader();
    await call('tools__echo', down.header);
    const [failed] = await spansOf(down.traceId, 1);
    expect(failed.status?.code).toBe(STATUS_ERROR);
    expect(failed.attrs['error.type']).toBe('upstream_error');
  });

  it('every response.create on a Responses WebSocket is its own request span, under the handshake traceparent', async () => {
    const tp = parentHeader();
    const ws = new ResponsesWS(f.openai(key), { headers: { traceparent: tp.header } });
    ws.on('error', () => {});
    for (let i = 0; i < 2; i++) {
      const done = new Promise<void>((resolve) => ws.on('response.completed' as never, (() => resolve()) as never));
      ws.send({ type: 'response.create', model: 'door-model', input: PROMPT } as never);
      await done;
    }
    ws.close();
    const spans = await spansOf(tp.traceId, 4);
    const roots = spans.filter((s: Decoded) => s.kind === SERVER);
    expect(roots).toHaveLength(2);
    for (const r of roots) {
      expect(r.parentSpanId).toBe(tp.spanId);
      expect(r.attrs).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'door-model', 'gen_ai.request.stream': true });
    }
  });

  it('no key or prompt text in anything exported', () => {
    const everything = receiver.bodies.join('\n');
    expect(everything.length).toBeGreaterThan(0);
    for (const secret of [...secrets, PROMPT]) expect(everything).not.toContain(secret);
  });
});
