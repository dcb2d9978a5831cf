import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSettings } from './config/env.js';
import { ConfigError } from './config/file.js';
import { StartupError } from './common/startup-error.js';
import { boundHeapGrowth, trimHeapWhenIdle } from './common/heap.js';
import { checkWorkerSetup, isPrimary, runPrimary, workerCount } from './cluster.js';

const here = fileURLToPath(new URL('.', import.meta.url));

async function main() {
  const config = loadSettings();
  const workers = workerCount(config);
  checkWorkerSetup(config, workers);
  if (workers > 1 && isPrimary()) return runPrimary(config, workers);
  boundHeapGrowth(config.HEAP_GROWTH_PERCENT);
  // Loaded only by a process that serves: a WORKERS primary stays small.
  const { createServer } = await import('./bootstrap.js');
  const webDist = config.WEB_DIST ?? resolve(here, '../../web/dist');
  const server = await createServer(config, { webDist });
  const { app, ctx } = server;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  trimHeapWhenIdle(app.server);
  ctx.log.info(`One Hub ${ctx.version} listening on http://localhost:${config.PORT} (${ctx.dialect})`);
}

main().catch((error) => {
  // A configuration mistake or a missing database is the operator's to fix: its message alone, without a stack.
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
