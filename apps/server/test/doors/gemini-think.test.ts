import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../harness.js';
import { doorFixture, type DoorFixture } from './fixture.js';

type ReasoningMessage = { content: string | null; reasoning_content?: string };

describe.each(testDialects())('GeminiOpenThink on %s', (dialect) => {
  let f: DoorFixture;
  let key = '';
  const sent = () => f.gemini.forKey('think-key').at(-1)!.body;

  beforeAll(async () => {
    f = await doorFixture(dialect);
    await f.unitPrice('gemini-think');
    await f.unitPrice('gemini-plain');
    await f.addChannel({ type: 25, key: 'think-key', base_url: f.gemini.url, models: 'gemini-think,gemini-plain' });
    await f.setOption('GeminiOpenThink', JSON.stringify({ 'gemini-think': true, 'gemini-plain': false }));
    f.gemini.behave('think-key', { thought: 'Weighing both options', content: 'Pick B' });
    key = (await f.newUser({ quota: 100_000 })).key;
  });
  afterAll(async () => f?.close());

  it('asks Gemini for thoughts on a flagged model and returns them as reasoning_content, plain and streamed', async () => {
    const openai = f.openai(key);
    const answer = await openai.chat.completions.create({ model: 'gemini-think', messages: [{ role: 'user', content: 'A or B?' }] });
    expect(sent().generationConfig.thinkingConfig).toEqual({ includeThoughts: true });
    const message = answer.choices[0].message as unknown as ReasoningMessage;
    expect(message.content).toBe('Pick B');
    expect(message.reasoning_content).toBe('Weighing both options');

    const stream = await openai.chat.completions.create({ model: 'gemini-think', stream: true, messages: [{ role: 'user', content: 'A or B?' }] });
    let reasoning = '';
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
    }
    expect(sent().generationConfig.thinkingConfig).toEqual({ includeThoughts: true });
    expect(reasoning).toBe('Weighing both options');
    expect(text).toBe('Pick B');
  });

  it('leaves other models alone: no includeThoughts, no thought text, thoughts still billed', async () => {
    const { key: own, userId } = await f.newUser({ quota: 100_000 });
    const answer = await f.openai(own).chat.completions.create({ model: 'gemini-plain', messages: [{ role: 'user', content: 'A or B?' }] });
    expect(sent().generationConfig?.thinkingConfig).toBeUndefined();
    const message = answer.choices[0].message as unknown as ReasoningMessage;
    expect(message.content).toBe('Pick B');
    expect(message.reasoning_content).toBeUndefined();
    // 2 words of text + 3 thought tokens.
    expect(await f.lastLog(userId)).toMatchObject({ model_name: 'gemini-plain', completion_tokens: 5 });
  });

  it('keeps a caller who turned thinking off, and does not touch Gemini-door bodies passed through', async () => {
    await f.openai(key).chat.completions.create({ model: 'gemini-think', reasoning_effort: 'none' as never, messages: [{ role: 'user', content: 'quick' }] });
    expect(sent().generationConfig.thinkingConfig).toMatchObject({ includeThoughts: false });

    await f.genai(key).models.generateContent({ model: 'gemini-think', contents: 'A or B?' });
    expect(sent().generationConfig).toBeUndefined();
  });
});
