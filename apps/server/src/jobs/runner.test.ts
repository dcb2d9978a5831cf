import { describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../app-context.js';
import { JobRunner } from './runner.js';

function fakeCtx(disabled = '') {
  const options = { disabled };
  const ctx = { options: { get: () => options.disabled }, log: { warn: vi.fn() }, onClose: [] as Array<() => void> } as unknown as AppContext;
  return { ctx, options };
}

describe('job runner', () => {
  it('runs a job on its interval, skips it while switched off, and never overlaps a run', async () => {
    const { ctx, options } = fakeCtx();
    const runner = new JobRunner(ctx);
    let runs = 0;
    let release!: () => void;
    runner.add({ name: 'balance_refresh', schedule: { everySeconds: 1 }, run: () => new Promise((r) => ((release = () => r('done')), runs++)) });
    runner.start();
    await expect.poll(() => runs, { timeout: 5000 }).toBe(1);
    expect(runner.status()[0]).toMatchObject({ running: true, schedule: 'every 1 s', configured: true });
    // A second start while the first is going on does nothing.
    expect(await runner.run('balance_refresh')).toBe(false);
    release();
    await expect.poll(() => runner.status()[0].last_outcome).toBe('ok');
    options.disabled = 'balance_refresh';
    const seen = runs;
    await new Promise((r) => setTimeout(r, 1500));
    expect(runs).toBe(seen);
    expect(runner.status()[0].enabled).toBe(false);
    runner.stop();
  });

  it('records a failure with its message and keeps the job', async () => {
    const { ctx } = fakeCtx();
    const runner = new JobRunner(ctx);
    runner.add({ name: 'price_sync', run: async () => Promise.reject(new Error('price service answered HTTP 503')) });
    expect(await runner.run('price_sync', new Date(Date.UTC(2030, 0, 1)))).toBe(true);
    expect(runner.status()[0]).toMatchObject({ last_outcome: 'error', last_message: 'price service answered HTTP 503', last_run_at: Date.UTC(2030, 0, 1) / 1000, schedule: 'off', configured: false });
    expect(ctx.log.warn).toHaveBeenCalled();
  });

  it('describes cron schedules by their label and runs an at-start job at once', async () => {
    const { ctx } = fakeCtx();
    const runner = new JobRunner(ctx);
    let ran = 0;
    runner.add({ name: 'monthly_bills', schedule: { cron: '0 4 * * *', label: 'daily 04:00' }, atStart: true, run: async () => `run ${++ran}` });
    runner.start();
    await expect.poll(() => ran).toBe(1);
    const s = runner.status()[0];
    expect(s.schedule).toBe('daily 04:00');
    expect(new Date(s.next_run_at * 1000).getHours()).toBe(4);
    runner.stop();
  });
});
