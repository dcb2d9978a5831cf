import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const index = join(web, 'dist/index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestSource(p) : s.mtimeMs);
  }
  return newest;
}

/** Builds the console when dist is missing or older than the sources. */
export default function setup() {
  const stale = !existsSync(index) || statSync(index).mtimeMs < Math.max(newestSource(join(web, 'src')), statSync(join(web, 'index.html')).mtimeMs);
  if (!stale) return;
  const vite = join(web, '../../node_modules/vite/bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'error'], { cwd: web, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
