import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';

/** The recorded Codex request: developer permissions, an image, signed reasoning, two function-call round trips. */
function codexRequest(model: string, overrides: Record<string, unknown> = {}): Record<string, any> {
  const body = JSON.parse(readFileSync(new URL('../../src/relay/formats/responses/__fixtures__/request-codex.json', import.meta.url), 'utf8'));
  return { ...body, model, ...overrides };
}

async function readEvents(res: Response): Promise<any[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => JSON.parse(/^data: (.+)$/m.exec(block)![1]));
}

describe.each(testDialects())('Codex replay through /v1/responses on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['codex-claude', 'codex-gemini']) await f.unitPrice(m);
    await f.addChannel({ type: 14, key: 'codex-claude-key', base_url: f.claude.url, models: 'codex-claude', model_mapping: JSON.stringify({ 'codex-claude': '+claude-sonnet-4-5-20250929' }) });
    await f.addChannel({ type: 25, key: 'codex-gemini-key', base_url: f.gemini.url, models: 'codex-gemini', model_mapping: JSON.stringify({ 'codex-gemini': '+gemini-2.5-pro' }) });
    ({ key } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  const post = (body: unknown) =>
    fetch(`${f.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', session_id: 'codex-session-1' }, body: JSON.stringify(body) });

  it('replays on an Anthropic channel: system from instructions and developer text, tool round trips, image, one function tool', async () => {
    f.claude.behave('codex-claude-key', { toolUse: { name: 'shell', input: { command: ['ls', '-la'] } } });
    const res = await post(codexRequest('codex-claude'));
    expect(res.status).toBe(200);
    const events = await readEvents(res);
    events.forEach((e, i) => expect(e.sequence_number).toBe(i));
    const done = events.at(-1);
    expect(done.type).toBe('response.completed');
    const call = done.response.output.find((o: { type: string }) => o.type === 'function_call');
    expect(call).toMatchObject({ name: 'shell', call_id: 'toolu_01FakeToolCall0000000000', status: 'completed' });
    expect(JSON.parse(call.arguments)).toEqual({ command: ['ls', '-la'] });
    expect(done.response.usage).toMatchObject({ input_tokens: 10 });

    const got = f.claude.forKey('codex-claude-key').at(-1)!.body;
    expect(got.model).toBe('claude-sonnet-4-5-20250929');
    expect(got.stream).toBe(true);
    expect(got.max_tokens).toBe(4000);
    expect(got.system).toContain("You are Codex, a coding agent running in the user's terminal.");
    expect(got.system).toContain('<permissions>workspace-write</permissions>');
    // Only the function tool converts; web_search has no Anthropic equivalent here.
    expect(got.tools.map((t: { name: string }) => t.name)).toEqual(['shell']);
    expect(got.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(got.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(got.messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(got.messages[1].content).toEqual([
      { type: 'text', text: 'Listing files now.' },
      { type: 'tool_use', id: 'call_ls1', name: 'shell', input: { command: ['ls'] } },
    ]);
    expect(got.messages[2].content[0]).toEqual({ type: 'tool_result', tool_use_id: 'call_ls1', content: 'README.md\nsrc' });
    expect(got.messages[3].content[0]).toMatchObject({ type: 'tool_use', id: 'call_rd1', input: { command: ['cat', 'README.md'] } });
    expect(got.messages[4].content[0]).toEqual({ type: 'tool_result', tool_use_id: 'call_rd1', content: '# Demo' });
    // OpenAI's encrypted reasoning cannot become a signed thinking block, so thinking stays off mid tool loop.
    expect(JSON.stringify(got)).not.toContain('gAAAAABo4opaque');
    expect(got.thinking).toBeUndefined();

    // A fresh turn of the same session (no unsigned tool loop to continue) maps effort medium to a thinking budget.
    f.claude.behave('codex-claude-key', { content: '{"files":["README.md"]}' });
    const fresh = await post(codexRequest('codex-claude', { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List files' }] }] }));
    const freshEvents = await readEvents(fresh);
    expect(freshEvents.at(-1).type).toBe('response.completed');
    expect(freshEvents.some((e) => e.type === 'response.reasoning_summary_text.delta')).toBe(true);
    const sent = f.claude.forKey('codex-claude-key').at(-1)!.body;
    expect(sent.thinking).toMatchObject({ type: 'enabled', budget_tokens: expect.any(Number) });
    expect(sent.thinking.budget_tokens).toBeLessThan(sent.max_tokens);
  });

  it('replays on a Gemini channel: function calls and responses paired by name, schema cleaned, thinking budget set', async () => {
    f.gemini.behave('codex-gemini-key', { functionCall: { name: 'shell', args: { command: ['pwd'] } } });
    const res = await post(codexRequest('codex-gemini'));
    expect(res.status).toBe(200);
    const events = await readEvents(res);
    events.forEach((e, i) => expect(e.sequence_number).toBe(i));
    expect(events.at(-1).type).toBe('response.completed');
    const call = events.at(-1).response.output.find((o: { type: string }) => o.type === 'function_call');
    expect(call).toMatchObject({ name: 'shell', status: 'completed' });
    expect(JSON.parse(call.arguments)).toEqual({ command: ['pwd'] });

    const got = f.gemini.forKey('codex-gemini-key').at(-1)!;
    expect(got.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent');
    const body = got.body;
    const system = body.systemInstruction.parts.map((p: { text: string }) => p.text).join('\n');
    expect(system).toContain('You are Codex');
    expect(system).toContain('<permissions>workspace-write</permissions>');
    expect(body.contents.map((c: { role: string }) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(body.contents[0].parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(body.contents[1].parts).toContainEqual({ functionCall: { name: 'shell', args: { command: ['ls'] } } });
    expect(body.contents[2].parts[0].functionResponse).toMatchObject({ name: 'shell' });
    expect(JSON.stringify(body.contents[2].parts[0].functionResponse.response)).toContain('README.md');
    expect(body.contents[3].parts).toContainEqual({ functionCall: { name: 'shell', args: { command: ['cat', 'README.md'] } } });
    expect(body.tools[0].functionDeclarations.map((d: { name: string }) => d.name)).toEqual(['shell']);
    expect(JSON.stringify(body.tools)).not.toContain('additionalProperties');
    expect(body.generationConfig.maxOutputTokens).toBe(4000);
    expect(body.generationConfig.thinkingConfig).toBeDefined();
    expect(JSON.stringify(body)).not.toContain('gAAAAABo4opaque');
  });
});
