import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import type { TestDialect } from '../harness.js';
import { FakeAnthropic } from '../fakes/anthropic-upstream.js';
import { FakeGemini } from '../fakes/gemini-upstream.js';

export interface DoorFixture extends RelayFixture {
  claude: FakeAnthropic;
  gemini: FakeGemini;
  /** The official Anthropic client pointed at the gateway root (as Claude Code is). */
  anthropic(key: string): Anthropic;
  /** The official Google client pointed at the gateway root (as Gemini CLI is). */
  genai(key: string): GoogleGenAI;
  /** A price of 1 quota per token each way, so billing reads as token counts. */
  unitPrice(model: string): Promise<void>;
  lastLog(userId: number): Promise<Record<string, any>>;
}

/** The relay fixture plus Anthropic and Gemini fakes and the official clients of each door. */
export async function doorFixture(dialect: TestDialect, env: Record<string, string> = {}): Promise<DoorFixture> {
  const base = await relayFixture(dialect, env);
  const claude = new FakeAnthropic();
  const gemini = new FakeGemini();
  await Promise.all([claude.start(), gemini.start()]);
  const f: DoorFixture = Object.assign(base, {
    claude,
    gemini,
    anthropic: (key: string) => new Anthropic({ apiKey: key, baseURL: base.url, maxRetries: 0 }),
    genai: (key: string) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: base.url } }),
    async unitPrice(model: string) {
      await base.server.ctx.db.insertInto('prices').values({ model, type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
      await base.server.ctx.store.publish('prices:changed', '');
    },
    async lastLog(userId: number) {
      await base.flush();
      return base.server.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    },
  });
  const close = base.close;
  f.close = async () => {
    await close();
    await Promise.all([claude.close(), gemini.close()]);
  };
  return f;
}

/** Reads an OpenAI chat stream to its end or its error: the text delivered and the error it ended with. */
export async function readChatStream(stream: AsyncIterable<{ choices: { delta?: { content?: string | null } }[] }>): Promise<{ text: string; err: any }> {
  let text = '';
  const err = await (async () => {
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
  })().catch((e) => e);
  return { text, err };
}
