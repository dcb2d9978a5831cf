import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';

/** The real Codex CLI (`@openai/codex`, a native binary), started through its npm launcher. */
const CODEX = createRequire(import.meta.url).resolve('@openai/codex/bin/codex.js');
const ANSWER = 'Hello from the gateway to Codex';
/** The launcher needs its platform's binary (an optional dependency); without it there is nothing to run. */
const RUNS = spawnSync(process.execPath, [CODEX, '--version'], { encoding: 'utf8', timeout: 20_000 }).stdout?.startsWith('codex-cli');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * One `codex exec` turn with its own CODEX_HOME. Nothing but loopback is reachable: every
 * proxy variable points at a closed loopback port and only 127.0.0.1 bypasses it, so an
 * update check or telemetry call fails locally instead of leaving the machine.
 */
async function codexExec(home: string, args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, [CODEX, 'exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', '-s', 'read-only', ...args, 'Say hello.'], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      CODEX_HOME: home,
      HTTPS_PROXY: 'http://127.0.0.1:9',
      HTTP_PROXY: 'http://127.0.0.1:9',
      ALL_PROXY: 'http://127.0.0.1:9',
      NO_PROXY: '127.0.0.1',
      RUST_LOG: 'error',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr, ms: Date.now() - started };
}

/**
 * Codex CLI against the gateway (issue 36 item 1) in its three configurations, on an OpenAI
 * channel: a custom provider over HTTP (`wire_api = "responses"`), the built-in OpenAI provider
 * pointed at the gateway with `openai_base_url`, and a provider with `supports_websockets = true`.
 * Every turn succeeds with no reconnect lines, and each is billed exactly like an HTTP request.
 */
describe.skipIf(!RUNS)('Codex CLI against the gateway', () => {
  let f: RelayFixture;
  let home: string;
  const upgrades: string[] = [];
  const db = () => f.server.ctx.db;
  const quotaOf = async (id: number) => Number((await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);
  const logs = async (id: number) => {
    await f.flush();
    return db().selectFrom('logs').selectAll().where('user_id', '=', id).where('type', '=', 2).orderBy('id').execute();
  };

  beforeAll(async () => {
    f = await relayFixture('sqlite');
    await f.server.ctx.db.insertInto('prices').values({ model: 'codex-e2e', type: 'tokens', channel_type: 1, input: 1, output: 1 }).execute();
    await f.server.ctx.store.publish('prices:changed', '');
    await f.addChannel({ type: 1, key: 'codex-cli-key', models: 'codex-e2e' });
    f.fake.behave('codex-cli-key', { content: ANSWER });
    f.server.app.server.on('upgrade', (req: IncomingMessage) => upgrades.push(req.url ?? ''));
  });
  afterAll(async () => {
    await f?.close();
  });

  /** A fresh CODEX_HOME holding `config`. */
  async function codexHome(config: string): Promise<string> {
    home = await mkdtemp(join(tmpdir(), 'codex-e2e-'));
    await writeFile(join(home, 'config.toml'), config);
    return home;
  }

  async function turn(config: string, args: string[], env: (key: string) => Record<string, string>) {
    const user = await f.newUser({ quota: 10_000_000 });
    const before = await quotaOf(user.userId);
    const dir = await codexHome(config);
    try {
      const run = await codexExec(dir, args, env(user.key));
      const rows = await logs(user.userId);
      return { run, rows, spent: before - (await quotaOf(user.userId)) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const provider = (extra = '') => `model = "codex-e2e"
model_provider = "onehub"
check_for_update_on_startup = false

[model_providers.onehub]
name = "One Hub"
base_url = "${f.url}/v1"
env_key = "ONE_HUB_KEY"
wire_api = "responses"
${extra}
`;

  /** The fake's usage: 9 input tokens, one output token per word of the answer, at 1 quota each. */
  const TURN = { prompt_tokens: 9, completion_tokens: ANSWER.split(' ').length, quota: 9 + ANSWER.split(' ').length };

  /**
   * The turn succeeded without reconnecting and is billed exactly: over the WebSocket Codex first
   * prewarms with `generate: false` (billed on its input alone), then runs the turn.
   */
  const expectTurn = (got: Awaited<ReturnType<typeof turn>>, prewarm: boolean) => {
    expect(got.run.stderr).not.toMatch(/Reconnecting/i);
    expect(got.run.code, got.run.stderr).toBe(0);
    expect(got.run.stdout.trim()).toBe(ANSWER);
    const expected = prewarm ? [{ prompt_tokens: 9, completion_tokens: 0, quota: 9 }, TURN] : [TURN];
    expect(got.rows.map((r) => ({ prompt_tokens: r.prompt_tokens, completion_tokens: r.completion_tokens, quota: r.quota }))).toEqual(expected);
    expect(got.rows.every((r) => r.model_name === 'codex-e2e' && JSON.parse(r.metadata!).usage_source === 'reported')).toBe(true);
    expect(got.spent).toBe(got.rows.reduce((n, r) => n + r.quota, 0));
  };
  /** What the channel was sent for the turn (and the prewarm before it). */
  const sent = (n: number) => f.fake.forKey('codex-cli-key').slice(-n).map((r) => ({ path: r.path, stream: r.body.stream, generate: r.body.generate }));

  it('a custom provider over HTTP (wire_api = "responses")', async () => {
    const seen = upgrades.length;
    const got = await turn(provider(), [], (key) => ({ ONE_HUB_KEY: key }));
    expectTurn(got, false);
    expect(upgrades.length).toBe(seen);
    expect(sent(1)).toEqual([{ path: '/v1/responses', stream: true, generate: undefined }]);
  });

  it('the built-in OpenAI provider pointed at the gateway with openai_base_url (it uses the WebSocket)', async () => {
    const seen = upgrades.length;
    const got = await turn('check_for_update_on_startup = false\nmodel = "codex-e2e"\n', ['-c', `openai_base_url="${f.url}/v1"`], (key) => ({ CODEX_API_KEY: key }));
    expectTurn(got, true);
    expect(upgrades.slice(seen)).toEqual(['/v1/responses']);
    expect(sent(2)).toEqual([
      { path: '/v1/responses', stream: true, generate: false },
      { path: '/v1/responses', stream: true, generate: undefined },
    ]);
  });

  it('a provider with supports_websockets = true: the turn runs over the WebSocket', async () => {
    const seen = upgrades.length;
    const got = await turn(provider('supports_websockets = true'), [], (key) => ({ ONE_HUB_KEY: key }));
    expectTurn(got, true);
    // One socket, no reconnects: both frames went over it.
    expect(upgrades.slice(seen)).toEqual(['/v1/responses']);
    expect(sent(2).map((r) => r.generate)).toEqual([false, undefined]);
  });
});
