import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';
import { deleteExpiredResponses } from '../../src/db/repos/stored-responses.js';

const texts = (content: unknown): string => (typeof content === 'string' ? content : (content as Array<{ text?: string }>).map((c) => c.text ?? '').join(''));

describe.each(testDialects())('previous_response_id on converted channels on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    for (const m of ['hist-claude', 'hist-gemini', 'hist-openai']) await f.unitPrice(m);
    await f.addChannel({ type: 14, key: 'hist-claude-key', base_url: f.claude.url, models: 'hist-claude' });
    await f.addChannel({ type: 25, key: 'hist-gemini-key', base_url: f.gemini.url, models: 'hist-gemini', model_mapping: JSON.stringify({ 'hist-gemini': '+gemini-2.5-flash' }) });
    await f.addChannel({ type: 1, key: 'hist-openai-key', models: 'hist-openai' });
    ({ key } = await f.newUser({ quota: 10_000_000 }));
  });
  afterAll(async () => f?.close());

  it('continues a conversation kept by the gateway, plain then streamed, on an Anthropic channel', async () => {
    const client = f.openai(key);
    f.claude.behave('hist-claude-key', { content: 'Nice to meet you Ada' });
    const first = await client.responses.create({ model: 'hist-claude', instructions: 'Old instructions.', input: 'My name is Ada' });
    f.claude.behave('hist-claude-key', { content: 'You are Ada' });
    const second = await client.responses.create({ model: 'hist-claude', instructions: 'Be brief.', input: 'What is my name?', previous_response_id: first.id });
    expect(second.output_text).toBe('You are Ada');
    expect(second.previous_response_id).toBe(first.id);
    const sent = f.claude.forKey('hist-claude-key').at(-1)!.body;
    // Instructions do not carry over (as on OpenAI): only the new request's.
    expect(sent.system).toBe('Be brief.');
    expect(sent.messages.map((m: { role: string; content: unknown }) => [m.role, texts(m.content)])).toEqual([
      ['user', 'My name is Ada'],
      ['assistant', 'Nice to meet you Ada'],
      ['user', 'What is my name?'],
    ]);

    f.claude.behave('hist-claude-key', { content: 'Goodbye Ada' });
    const events: any[] = [];
    for await (const e of await client.responses.create({ model: 'hist-claude', input: [{ role: 'user', content: 'Bye' }], previous_response_id: second.id, stream: true })) events.push(e);
    const done = events.at(-1);
    expect(done.type).toBe('response.completed');
    expect(f.claude.forKey('hist-claude-key').at(-1)!.body.messages).toHaveLength(5);

    // The streamed response is kept too: its id continues on a Gemini channel with all five turns.
    f.gemini.behave('hist-gemini-key', { content: 'Still here' });
    const fourth = await client.responses.create({ model: 'hist-gemini', input: 'Again', previous_response_id: done.response.id });
    expect(fourth.output_text).toBe('Still here');
    const contents = f.gemini.forKey('hist-gemini-key').at(-1)!.body.contents;
    expect(contents.map((c: { role: string }) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user', 'model', 'user']);
    expect(contents[5].parts[0].text).toBe('Goodbye Ada');
  });

  it('continues a function-call turn: the stored call and the new function_call_output pair up', async () => {
    f.claude.behave('hist-claude-key', { toolUse: { name: 'lookup', input: { q: 'x' } } });
    const tools = [{ type: 'function' as const, name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false }];
    const first = await f.openai(key).responses.create({ model: 'hist-claude', input: 'Look up x', tools });
    const call = first.output.find((o) => o.type === 'function_call') as { call_id: string };
    f.claude.behave('hist-claude-key', { content: 'Found it' });
    const next = await f.openai(key).responses.create({ model: 'hist-claude', previous_response_id: first.id, tools, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'x is 42' }] });
    expect(next.output_text).toBe('Found it');
    const messages = f.claude.forKey('hist-claude-key').at(-1)!.body.messages;
    expect(messages[1].content.at(-1)).toMatchObject({ type: 'tool_use', id: call.call_id, name: 'lookup', input: { q: 'x' } });
    expect(messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: call.call_id, content: 'x is 42' });
  });

  it('expands the kept conversation into input for an OpenAI channel, and forwards an OpenAI id untouched', async () => {
    f.claude.behave('hist-claude-key', { content: 'Kept answer', thinking: 'Private thought' });
    const first = await f.openai(key).responses.create({ model: 'hist-claude', input: 'Start' });
    expect(first.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    await f.openai(key).responses.create({ model: 'hist-openai', input: 'Continue', previous_response_id: first.id });
    const got = f.fake.forKey('hist-openai-key').at(-1)!.body;
    expect(got.previous_response_id).toBeUndefined();
    expect(got.input.map((i: { role?: string; type?: string }) => i.role ?? i.type)).toEqual(['user', 'assistant', 'user']);
    expect(texts(got.input[1].content)).toBe('Kept answer');
    // The gateway's own item ids and unverifiable reasoning never reach OpenAI.
    expect(JSON.stringify(got.input)).not.toMatch(/"id"|Private thought/);

    await f.openai(key).responses.create({ model: 'hist-openai', input: 'Continue', previous_response_id: 'resp_from_openai_itself' });
    expect(f.fake.forKey('hist-openai-key').at(-1)!.body).toMatchObject({ previous_response_id: 'resp_from_openai_itself', input: 'Continue' });
  });

  it('refuses what it cannot continue: unknown 400, store:false 400, expired 400, another user 404', async () => {
    const client = f.openai(key);
    const unknown = await client.responses.create({ model: 'hist-claude', input: 'x', previous_response_id: 'resp_nobody' }).catch((e) => e);
    expect(unknown.status).toBe(400);
    expect(unknown.error).toMatchObject({ code: 'previous_response_not_found', message: expect.stringContaining('resp_nobody is unknown') });

    const unstored = await client.responses.create({ model: 'hist-claude', input: 'x', store: false });
    const notKept = await client.responses.create({ model: 'hist-claude', input: 'y', previous_response_id: unstored.id }).catch((e) => e);
    expect(notKept.status).toBe(400);

    const old = await client.responses.create({ model: 'hist-claude', input: 'x' });
    await f.server.ctx.db.updateTable('stored_responses').set({ expires_at: 1 }).where('id', '=', old.id).execute();
    const expired = await client.responses.create({ model: 'hist-claude', input: 'y', previous_response_id: old.id }).catch((e) => e);
    expect(expired.status).toBe(400);
    expect(expired.error.message).toContain('has expired');

    const mine = await client.responses.create({ model: 'hist-claude', input: 'secret' });
    const other = await f.newUser({ quota: 1_000_000 });
    const stolen = await f.openai(other.key).responses.create({ model: 'hist-claude', input: 'y', previous_response_id: mine.id }).catch((e) => e);
    expect(stolen.status).toBe(404);
    expect(JSON.stringify(stolen.error)).not.toContain('secret');
  });

  it('counts the kept turns in the prompt when upstream reports no usage', async () => {
    const { key: own, userId } = await f.newUser({ quota: 10_000_000 });
    f.gemini.behave('hist-gemini-key', { noUsage: true, content: 'A fairly long answer that the next turn has to carry along with it' });
    const first = await f.openai(own).responses.create({ model: 'hist-gemini', input: 'Tell me something long' });
    const fresh = await f.lastLog(userId);
    await f.openai(own).responses.create({ model: 'hist-gemini', input: 'Tell me something long', previous_response_id: first.id });
    const continued = await f.lastLog(userId);
    f.gemini.behave('hist-gemini-key', {});
    expect(fresh.estimated).toBe(1);
    expect(continued.estimated).toBe(1);
    // The second prompt carries the first question and its 13-word answer.
    expect(continued.prompt_tokens - fresh.prompt_tokens).toBeGreaterThanOrEqual(13);
  });

  it('keeps nothing when ResponsesRetentionHours is 0, and keeps for the configured hours otherwise', async () => {
    f.claude.behave('hist-claude-key', {});
    await f.setOption('ResponsesRetentionHours', 0);
    try {
      const r = await f.openai(key).responses.create({ model: 'hist-claude', input: 'x' });
      expect(await f.server.ctx.db.selectFrom('stored_responses').select('id').where('id', '=', r.id).executeTakeFirst()).toBeUndefined();
    } finally {
      await f.setOption('ResponsesRetentionHours', 2);
    }
    const r = await f.openai(key).responses.create({ model: 'hist-claude', input: 'x' });
    const row = await f.server.ctx.db.selectFrom('stored_responses').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(row.expires_at - row.created_at).toBe(2 * 3600);
    expect(JSON.parse(row.items)).toHaveLength(2);
    await f.setOption('ResponsesRetentionHours', 72);

    // The hourly sweep deletes expired rows only.
    await f.server.ctx.db.updateTable('stored_responses').set({ expires_at: 5 }).where('id', '=', r.id).execute();
    const before = await f.server.ctx.db.selectFrom('stored_responses').select('id').execute();
    expect(await deleteExpiredResponses(f.server.ctx.db, 10)).toBeGreaterThanOrEqual(1);
    const after = (await f.server.ctx.db.selectFrom('stored_responses').select('id').execute()).map((x) => x.id);
    expect(after).not.toContain(r.id);
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(before.length);
  });
});
