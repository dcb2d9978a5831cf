// `npm start`: builds the console when its bundle is missing, compiles the server, then runs it.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'apps/web/dist/index.html');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(dist) && existsSync(join(root, 'apps/web/index.html'))) {
  console.log('Building the console (first start only)…');
  const build = spawnSync(npm, ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const build = spawnSync(process.execPath, [join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// The gateway's node flags (also the Dockerfile's CMD and the bench's; docs/decisions/0112-gateway-memory-flags-and-lazy-sdks.md).
const nodeFlags = JSON.parse(readFileSync(join(root, 'apps/server/node-flags.json'), 'utf8'));
const server = spawn(process.execPath, [...nodeFlags, join(root, 'apps/server/dist/main.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
