import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayFixture, type RelayFixture } from './fixture.js';
import { relayState } from '../../src/relay/state.js';
import { startHttpProxy, startSocks5Proxy, type FakeProxy } from '../fakes/proxies.js';

/** Per-channel proxies (relay.md §3: HTTP and SOCKS). Routing through a proxy does not depend on the database. */
describe('channel proxies', () => {
  let f: RelayFixture;
  let http: FakeProxy;
  let socks: FakeProxy;
  let socksPort: string;
  let fakeHost: string;
  beforeAll(async () => {
    f = await relayFixture('sqlite');
    http = await startHttpProxy();
    socks = await startSocks5Proxy({ user: 'proxy-user', pass: 'proxy-pass' });
    socksPort = new URL(socks.url).port;
    fakeHost = new URL(f.fake.url).host;
  });
  afterAll(async () => {
    await f?.close();
    await http?.close();
    await socks?.close();
  });

  async function ask(model: string, stream = false) {
    const { key } = await f.newUser({ quota: 10_000_000 });
    const client = f.openai(key);
    if (!stream) return (await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })).choices[0].message.content;
    let text = '';
    for await (const chunk of await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true })) {
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    return text;
  }

  it('tunnels through an HTTP proxy', async () => {
    await f.addChannel({ key: 'http-proxied', models: 'via-http', proxy: http.url });
    expect(await ask('via-http')).toBe('Hello from the fake upstream');
    expect(http.tunnels).toContain(fakeHost);
    expect(f.fake.forKey('http-proxied')).toHaveLength(1);
  });

  it('tunnels JSON and streams through a SOCKS5 proxy with credentials', async () => {
    await f.addChannel({ key: 'socks-proxied', models: 'via-socks', proxy: socks.url });
    const before = socks.tunnels.length;
    expect(await ask('via-socks')).toBe('Hello from the fake upstream');
    expect(await ask('via-socks', true)).toBe('Hello from the fake upstream');
    expect(socks.tunnels.length).toBeGreaterThan(before);
    expect(socks.tunnels.at(-1)).toBe(fakeHost);
  });

  it('puts the channel key into a proxy URL that asks for it with %s', async () => {
    await f.addChannel({ key: 'proxy-user', models: 'via-key', proxy: `socks5://%s:proxy-pass@127.0.0.1:${socksPort}` });
    expect(await ask('via-key')).toBe('Hello from the fake upstream');
  });

  it('fails the request, without reaching upstream, when the proxy refuses the credentials', async () => {
    await f.addChannel({ key: 'bad-socks', models: 'via-bad-socks', proxy: `socks5://proxy-user:wrong@127.0.0.1:${socksPort}` });
    const err = await ask('via-bad-socks').catch((e) => e);
    expect(err.status).toBeGreaterThanOrEqual(500);
    expect(f.fake.forKey('bad-socks')).toHaveLength(0);
  });

  it('answers 503 naming the problem for a stored proxy scheme it cannot use', async () => {
    // The console refuses such a URL; a row written some other way must still fail cleanly.
    const id = await f.addChannel({ key: 'ftp-proxied', models: 'via-ftp' });
    await f.server.ctx.db.updateTable('channels').set({ proxy: 'ftp://127.0.0.1:21' }).where('id', '=', id).execute();
    await relayState(f.server.ctx).selector.reload();
    const err = await ask('via-ftp').catch((e) => e);
    expect(err.status).toBe(503);
    expect(err.error.message).toMatch(/proxy must be/);
  });
});
