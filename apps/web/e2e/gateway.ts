import { expect } from 'vitest';
import { ApiClient } from '../../server/test/harness';
import { FakeOpenAI, type Behaviour } from '../../server/test/fakes/openai-upstream';
import { relayState } from '../../server/src/relay/state';
import type { Console } from './browser';

/** A fake OpenAI upstream wired to the console's server: channels, priced models and users. */
export async function startGateway(c: Console) {
  const fake = new FakeOpenAI();
  await fake.start();
  let seq = 0;
  return {
    fake,
    /** A channel serving `model` whose answers follow `behaviour`; the model costs `ratio` quota per token each way. */
    async addModel(model: string, behaviour: Behaviour = {}, ratio = 10000) {
      const key = `e2e-key-${++seq}`;
      fake.behave(key, behaviour);
      await c.server.ctx.db.insertInto('prices').values({ model, type: 'tokens', channel_type: 1, input: ratio, output: ratio }).execute();
      await c.server.ctx.store.publish('prices:changed', '');
      const res = await c.root.post('/api/channel/', { type: 1, name: `e2e-${seq}`, key, base_url: fake.url, models: model, group: 'default' });
      expect(res.body.success, JSON.stringify(res.body)).toBe(true);
      await relayState(c.server.ctx).selector.reload();
    },
    /**
     * Registers a user holding `quota` and answers its id. The default covers a worst-case hold
     * on the models above: no max_tokens means the default output limit (8192) at `ratio` each.
     */
    async addUser(username: string, password: string, quota = 200_000_000) {
      const anon = new ApiClient(c.server.app);
      const reg = await anon.post('/api/user/register', { username, password });
      expect(reg.body.success, JSON.stringify(reg.body)).toBe(true);
      const user = await new ApiClient(c.server.app).login(username, password);
      const res = await c.root.post(`/api/user/quota/${user.id}`, { quota });
      expect(res.body.success, JSON.stringify(res.body)).toBe(true);
      return user.id as number;
    },
    /** Writes queued log rows and daily statistics now. */
    flush: () => relayState(c.server.ctx).recorder.flush(),
    close: () => fake.close(),
  };
}
