// `npm start`: builds the console when its bundle is missing, then runs the server.
import { existsSync } from 'node:fs';
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

const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const server = spawn(process.execPath, [tsx, join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
