import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';

/** relay.md §1.4: `model#<effort>` and `model#thinking`, on pass-through and converted paths. */
describe.each(testDialects())('Model-name suffixes on %s', (dialect) => {
  let f: DoorFixture;
  let key: string;
  let userId: number;
  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.unitPrice('sfx-gpt');
    await f.unitPrice('sfx-claude');
    await f.addChannel({ type: 1, key: 'sfx-openai', models: 'sfx-gpt' });
    await f.addChannel({ type: 14, key: 'sfx-claude', base_url: f.claude.url, models: 'sfx-claude' });
    ({ key, userId } = await f.newUser({ quota: 1_000_000 }));
  });
  afterAll(async () => f?.close());

  it('#high sets reasoning_effort for an OpenAI channel; routing and billing use the bare name', async () => {
    await f.openai(key).chat.completions.create({ model: 'sfx-gpt#high', messages: [{ role: 'user', content: 'hi' }] });
    const got = f.fake.forKey('sfx-openai').at(-1)!.body;
    expect(got).toMatchObject({ model: 'sfx-gpt', reasoning_effort: 'high' });
    expect((await f.lastLog(userId)).model_name).toBe('sfx-gpt');
  });

  it('the caller’s own reasoning_effort wins over the suffix', async () => {
    await f.openai(key).chat.completions.create({ model: 'sfx-gpt#high', reasoning_effort: 'low', messages: [{ role: 'user', content: 'hi' }] });
    expect(f.fake.forKey('sfx-openai').at(-1)!.body.reasoning_effort).toBe('low');
  });

  it('#thinking turns on extended thinking on an Anthropic channel, converted and passed through', async () => {
    const answer = await f.openai(key).chat.completions.create({ model: 'sfx-claude#thinking', messages: [{ role: 'user', content: 'think' }] });
    expect((answer.choices[0].message as { reasoning_content?: string }).reasoning_content).toBeTruthy();
    const converted = f.claude.forKey('sfx-claude').at(-1)!.body;
    expect(converted.model).toBe('sfx-claude');
    expect(converted.thinking).toEqual({ type: 'enabled', budget_tokens: Math.floor(8192 * 0.8) });

    const message = await f.anthropic(key).messages.create({ model: 'sfx-claude#thinking', max_tokens: 4000, messages: [{ role: 'user', content: 'think' }] });
    expect(message.content[0].type).toBe('thinking');
    const passed = f.claude.forKey('sfx-claude').at(-1)!.body;
    expect(passed.model).toBe('sfx-claude');
    expect(passed.thinking).toEqual({ type: 'enabled', budget_tokens: 3200 });
    expect(passed.max_tokens).toBeGreaterThan(3200);
  });

  it('#low becomes a small thinking budget when converted towards Claude', async () => {
    await f.openai(key).chat.completions.create({ model: 'sfx-claude#low', max_tokens: 10_000, messages: [{ role: 'user', content: 'x' }] });
    expect(f.claude.forKey('sfx-claude').at(-1)!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
  });
});
