import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('clean install', () => {
  // npm's own engine check over the locked tree: what a fresh `npm install` would warn about.
  it('npm install reports no EBADENGINE on this Node', () => {
    const run = spawnSync('npm', ['install', '--dry-run', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output.split('\n').filter((l) => l.includes('EBADENGINE'))).toEqual([]);
  }, 150_000);
});
