import { describe, expect, it } from 'vitest';
import { ApiClient, ROOT_PASSWORD, startTestServer, testDialects } from '../harness.js';
import { jobRunner } from '../../src/jobs/index.js';

describe.each(testDialects())('job history across restarts on %s', (dialect) => {
  it('the system info screen shows the last run and outcome of each job after a restart', async () => {
    // The price service is a closed loopback port: that run fails.
    const env = { UPDATE_PRICE_SERVICE: 'http://127.0.0.1:9/prices.json', AUTO_PRICE_UPDATES_MODE: 'add' };
    const first = await startTestServer(dialect, { env });
    const started = Math.floor(Date.now() / 1000);
    expect(await jobRunner(first.ctx).run('log_retention')).toBe(true);
    expect(await jobRunner(first.ctx).run('price_sync')).toBe(true);
    const before = jobRunner(first.ctx).status();
    await first.close();

    const second = await startTestServer(dialect, { reuse: first, env });
    try {
      const root = new ApiClient(second.app);
      await root.login('root', ROOT_PASSWORD);
      const jobs = (await root.get('/api/system_info/jobs')).body.data.jobs as Array<Record<string, unknown>>;
      const by = Object.fromEntries(jobs.map((j) => [j.name, j]));
      const retention = before.find((j) => j.name === 'log_retention')!;
      expect(by.log_retention).toMatchObject({ last_outcome: 'ok', last_run_at: retention.last_run_at, last_duration_ms: retention.last_duration_ms, last_message: retention.last_message, running: false });
      expect(by.log_retention.last_run_at).toBeGreaterThanOrEqual(started);
      expect(by.price_sync).toMatchObject({ last_outcome: 'error', last_run_at: before.find((j) => j.name === 'price_sync')!.last_run_at });
      expect(String(by.price_sync.last_message)).toBeTruthy();
      // A job that never ran still says so.
      expect(by.channel_test).toMatchObject({ last_outcome: null, last_run_at: 0, last_message: '' });

      // A later run replaces the recorded one.
      expect(await jobRunner(second.ctx).run('log_retention', new Date((started + 3600) * 1000))).toBe(true);
      const rows = await second.ctx.db.selectFrom('job_runs').selectAll().where('name', '=', 'log_retention').execute();
      expect(rows.map((r) => Number(r.last_run_at))).toEqual([started + 3600]);
    } finally {
      await second.destroy();
    }
  });
});
