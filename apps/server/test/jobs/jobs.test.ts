import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_STATUS } from '@one-hub/contract';
import { testDialects } from '../harness.js';
import { relayFixture, type RelayFixture } from '../relay/fixture.js';
import { FakeNativeProviders } from '../fakes/native-providers.js';
import { FakePriceService } from '../fakes/price-service.js';
import { jobRunner, onJobNotice, type JobNotice } from '../../src/jobs/index.js';
import { relayState } from '../../src/relay/state.js';

const DAY = 86_400;

describe.each(testDialects())('scheduled jobs on %s', (dialect) => {
  let f: RelayFixture;
  let native: FakeNativeProviders;
  let prices: FakePriceService;
  const notices: JobNotice[] = [];

  beforeAll(async () => {
    native = new FakeNativeProviders();
    prices = new FakePriceService();
    await Promise.all([native.start(), prices.start()]);
    f = await relayFixture(dialect, {
      CHANNEL_TEST_FREQUENCY: '30',
      CHANNEL_UPDATE_FREQUENCY: '60',
      AUTO_PRICE_UPDATES: 'true',
      AUTO_PRICE_UPDATES_MODE: 'add',
      UPDATE_PRICE_SERVICE: `${prices.url}/prices.json`,
    });
    onJobNotice(f.server.ctx, (n) => void notices.push(n));
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([native?.close(), prices?.close()]);
  });

  const status = async (id: number) => (await f.server.ctx.db.selectFrom('channels').select(['status', 'disabled_reason']).where('id', '=', id).executeTakeFirstOrThrow());
  const setStatus = async (id: number, s: number) => {
    await f.server.ctx.db.updateTable('channels').set({ status: s }).where('id', '=', id).execute();
    await relayState(f.server.ctx).selector.reload();
  };
  const run = async (name: Parameters<ReturnType<typeof jobRunner>['run']>[0], now?: Date) => {
    expect(await jobRunner(f.server.ctx).run(name, now)).toBe(true);
    return (await f.root.get('/api/system_info/jobs')).body.data.jobs.find((j: { name: string }) => j.name === name);
  };

  it('the channel test disables a failing channel, re-enables a recovered one and leaves a manual disable alone', async () => {
    await f.setOption('AutomaticDisableChannelEnabled', true);
    await f.setOption('AutomaticEnableChannelEnabled', true);
    const failing = await f.addChannel({ key: 'job-failing' });
    const recovered = await f.addChannel({ key: 'job-recovered' });
    const manual = await f.addChannel({ key: 'job-manual' });
    const healthy = await f.addChannel({ key: 'job-healthy' });
    f.fake.behave('job-failing', { status: 500 });
    await setStatus(recovered, CHANNEL_STATUS.autoDisabled);
    await setStatus(manual, CHANNEL_STATUS.manuallyDisabled);

    const job = await run('channel_test');
    expect(job).toMatchObject({ last_outcome: 'ok', configured: true, enabled: true, schedule: 'every 30 min', running: false });
    expect(job.last_message).toMatch(/disabled 1, re-enabled 1/);
    expect(await status(failing)).toMatchObject({ status: CHANNEL_STATUS.autoDisabled });
    expect((await status(failing)).disabled_reason).toContain('定时测试');
    expect((await status(recovered)).status).toBe(CHANNEL_STATUS.enabled);
    expect((await status(manual)).status).toBe(CHANNEL_STATUS.manuallyDisabled);
    expect((await status(healthy)).status).toBe(CHANNEL_STATUS.enabled);
    expect(f.fake.forKey('job-manual')).toHaveLength(0);
    expect(notices.at(-1)).toMatchObject({ job: 'channel_test' });
    expect(notices.at(-1)!.text).toContain(`disabled #${failing}`);
    expect(notices.at(-1)!.text).toContain(`re-enabled #${recovered}`);

    // The failing channel answers again: the next run brings it back.
    f.fake.behave('job-failing', {});
    expect((await run('channel_test')).last_message).toMatch(/re-enabled 1/);
    expect((await status(failing)).status).toBe(CHANNEL_STATUS.enabled);
    for (const id of [failing, recovered, manual, healthy]) await setStatus(id, CHANNEL_STATUS.manuallyDisabled);
  });

  it('refreshes balances of channels whose provider reports one', async () => {
    const deepseek = await f.addChannel({ type: 28, key: 'job-bal-28', base_url: native.url, models: 'deepseek-chat' });
    const openai = await f.addChannel({ type: 1, key: 'job-bal-1', base_url: native.url, models: 'gpt-bal' });
    const job = await run('balance_refresh');
    expect(job).toMatchObject({ last_outcome: 'ok', schedule: 'every 1 h' });
    const balance = async (id: number) => Number((await f.server.ctx.db.selectFrom('channels').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance);
    expect(await balance(deepseek)).toBeCloseTo(42.5);
    expect(await balance(openai)).toBeCloseTo(100 - 12.34);
    expect(native.forKey('job-bal-28').map((r) => r.path)).toEqual(['/user/balance']);
    for (const id of [deepseek, openai]) await setStatus(id, CHANNEL_STATUS.manuallyDisabled);
  });

  it('syncs prices from the price service in the configured mode and reports a broken list as an error', async () => {
    await f.server.ctx.db.insertInto('prices').values({ model: 'job-kept', type: 'tokens', channel_type: 1, input: 7, output: 7 }).execute();
    prices.prices = [
      { model: 'job-new', type: 'tokens', channel_type: 1, input: 2, output: 4 },
      { model: 'job-kept', type: 'tokens', channel_type: 1, input: 1, output: 1 },
    ];
    expect((await run('price_sync')).last_outcome).toBe('ok');
    const rows = await f.server.ctx.db.selectFrom('prices').select(['model', 'input', 'output']).where('model', 'in', ['job-new', 'job-kept']).orderBy('model').execute();
    expect(rows.map((r) => [r.model, Number(r.input), Number(r.output)])).toEqual([['job-kept', 7, 7], ['job-new', 2, 4]]);

    prices.answer = { status: 200, body: { data: [{ model: 'x', type: 'weird' }] } };
    const broken = await run('price_sync');
    expect(broken.last_outcome).toBe('error');
    expect(broken.last_message).toContain('price list rejected');
    expect(notices.at(-1)).toMatchObject({ job: 'price_sync', title: 'Price sync failed' });
    prices.answer = undefined;
  });

  it('log retention deletes rows past LogRetentionDays in batches while relay requests keep flowing', async () => {
    const { key, userId } = await f.newUser({ quota: 1_000_000 });
    await f.addChannel({ key: 'job-relay' });
    // A clock five days ahead: with 30 days kept, the cut is 25 days before the real now.
    const now = new Date(Date.now() + 5 * DAY * 1000);
    const real = Math.floor(Date.now() / 1000);
    const row = (created_at: number, content: string) => ({ user_id: 999_999, created_at, type: 2, content, username: 'old', token_name: '', model_name: 'm', quota: 1, prompt_tokens: 0, completion_tokens: 0, channel_id: 0, request_time: 0, is_stream: 0 });
    const old = Array.from({ length: 2300 }, (_, i) => row(real - 26 * DAY - i, 'old'));
    for (let i = 0; i < old.length; i += 500) await f.server.ctx.db.insertInto('logs').values(old.slice(i, i + 500)).execute();
    await f.server.ctx.db.insertInto('logs').values([row(real - 24 * DAY, 'recent'), row(real - 25 * DAY + 60, 'recent')]).execute();

    await f.setOption('LogRetentionDays', 0);
    expect((await run('log_retention', now)).last_message).toContain('retention off');
    await f.setOption('LogRetentionDays', 30);

    const chats = Array.from({ length: 8 }, () => f.openai(key).chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] }));
    const [job] = await Promise.all([run('log_retention', now), ...chats]);
    expect(job).toMatchObject({ last_outcome: 'ok', schedule: 'daily 03:30' });
    expect(job.last_message).toBe('deleted 2300 log rows older than 30 days');
    await f.flush();
    const left = await f.server.ctx.db.selectFrom('logs').select('content').where('user_id', '=', 999_999).execute();
    expect(left.map((r) => r.content)).toEqual(['recent', 'recent']);
    expect(await f.server.ctx.db.selectFrom('logs').select('id').where('user_id', '=', userId).where('type', '=', 2).execute()).toHaveLength(8);
  });

  it('shows every job to root only, runs one on demand and switches one off', async () => {
    const { client } = await f.newUser();
    expect((await client.get('/api/system_info/jobs')).body.success).toBe(false);
    const info = (await f.root.get('/api/system_info/jobs')).body.data;
    expect(info.node_type).toBe('master');
    expect(info.jobs.map((j: { name: string }) => j.name)).toEqual(['channel_test', 'balance_refresh', 'price_sync', 'log_retention', 'monthly_bills', 'mcp_refresh']);
    // USER_INVOICE_MONTH is off here: the job is listed but not scheduled.
    expect(info.jobs.find((j: { name: string }) => j.name === 'monthly_bills')).toMatchObject({ configured: false, schedule: 'off', next_run_at: 0 });
    expect(info.jobs.find((j: { name: string }) => j.name === 'log_retention').next_run_at).toBeGreaterThan(Date.now() / 1000);

    expect((await f.root.put('/api/system_info/jobs/channel_test', { enabled: false })).body.success).toBe(true);
    expect((await f.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'DisabledJobs').value).toBe('channel_test');
    const off = (await f.root.get('/api/system_info/jobs')).body.data.jobs.find((j: { name: string }) => j.name === 'channel_test');
    expect(off.enabled).toBe(false);
    expect((await f.root.put('/api/system_info/jobs/nope', { enabled: false })).status).toBe(400);
    expect((await f.root.put('/api/system_info/jobs/channel_test', { enabled: 'yes' })).status).toBe(400);
    await f.root.put('/api/system_info/jobs/channel_test', { enabled: true });

    // The last run read a clock five days ahead; run now reads the real one.
    const started = Math.floor(Date.now() / 1000);
    expect((await f.root.post('/api/system_info/jobs/log_retention/run', {})).body.success).toBe(true);
    const retention = async () => (await f.root.get('/api/system_info/jobs')).body.data.jobs.find((j: { name: string }) => j.name === 'log_retention');
    await expect.poll(async () => (await retention()).last_run_at).toBeLessThan(started + 60);
    expect((await retention()).last_run_at).toBeGreaterThanOrEqual(started);
  });
});
