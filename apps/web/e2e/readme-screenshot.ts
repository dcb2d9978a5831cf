// The README's screenshot (docs/images/console.png): root's dashboard on a fresh server (SQLite,
// the built console) with a week of usage. Run from apps/web after `npm run build -w apps/web`:
//   CHROMIUM_PATH=/usr/bin/chromium npx tsx e2e/readme-screenshot.ts [output.png]
// Today's rows come from real relay requests through a fake upstream on loopback; the six days
// before are written into the daily roll-up directly, as the relay's recorder would have.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signIn, startConsole, ROOT_PASSWORD } from './browser';
import { startGateway } from './gateway';

const out = process.argv[2] ?? fileURLToPath(new URL('../../../docs/images/console.png', import.meta.url));
const MODELS = ['gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'deepseek-chat'];

const c = await startConsole();
const gw = await startGateway(c);
try {
  // the seeded price list already prices these names: serve them at the gateway's test price instead
  await c.server.ctx.db.deleteFrom('prices').where('model', 'in', MODELS).execute();
  for (const model of MODELS) await gw.addModel(model, { content: 'Hello from the upstream.' }, 400);
  const made = await c.root.post('/api/token/', { name: 'readme', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  if (!made.body.success) throw new Error(JSON.stringify(made.body));
  const key = made.body.data.key as string;
  for (let i = 0; i < 60; i++) {
    const model = MODELS[i % MODELS.length];
    const res = await fetch(`${c.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: `Question ${i}: what is the weather like?` }] }),
    });
    if (res.status !== 200) throw new Error(`${model}: ${res.status} ${await res.text()}`);
  }
  await gw.flush();

  const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
  const channels = await c.server.ctx.db.selectFrom('channels').select(['id', 'models']).execute();
  for (let back = 1; back <= 6; back++) {
    for (const [m, model] of MODELS.entries()) {
      const channel = channels.find((ch) => ch.models === model)!.id;
      const requests = 20 + ((back * 37 + m * 53) % 90);
      const row = {
        date: day(back),
        channel_id: channel,
        model_name: model,
        request_count: requests,
        quota: requests * (600 + m * 450),
        prompt_tokens: requests * 180,
        completion_tokens: requests * 120,
        request_time: requests * 900,
      };
      await c.server.ctx.db.insertInto('statistics').values({ ...row, user_id: 1 }).execute();
      await c.server.ctx.db.insertInto('statistics_totals').values(row).execute();
    }
  }

  const page = await c.open({ width: 1366, height: 860, lang: 'en_US' });
  await signIn(page, 'root', ROOT_PASSWORD);
  await page.getByTestId('dashboard').waitFor();
  await page.getByTestId('week-model-chart').locator('svg').first().waitFor();
  // the charts animate in; wait until their bars stop moving
  await page.waitForFunction(
    () => {
      const w = window as unknown as { lastCharts?: string };
      const now = [...document.querySelectorAll('.apexcharts-svg')].map((svg) => svg.innerHTML).join('');
      const still = now.length > 0 && now === w.lastCharts;
      w.lastCharts = now;
      return still;
    },
    undefined,
    { polling: 500 },
  );
  await page.screenshot({ path: out, type: 'png' });
  console.log(`wrote ${join(out)}`);
} finally {
  await c.close();
  await gw.close();
}
