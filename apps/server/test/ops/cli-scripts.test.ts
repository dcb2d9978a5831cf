import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The scripts a user runs, spawned as their npm scripts run them (tsx, from the repository root):
 * --help/-h prints the usage to stdout and exits 0; an unknown flag or a flag missing its value
 * prints one line to stderr and exits 2; progress off a terminal is plain lines.
 */
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../../..');
const server = join(root, 'apps/server');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    // Without a terminal (stdio is a pipe here), as in CI or `… | tee`.
    execFile(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const scripts = [
  { npm: 'import', file: join(server, 'src/import/cli.ts'), valued: '--batch', flags: ['--from', '--dry-run', '--log-days', '--batch', '--config'] },
  { npm: 'seed:big', file: join(server, 'bench/seed-big-cli.ts'), valued: '--logs', flags: ['--dsn', '--users', '--tokens', '--channels', '--logs', '--days'] },
  { npm: 'bench', file: join(server, 'bench/cli.ts'), valued: '--seconds', flags: ['--storage', '--workers', '--seconds', '--warmup', '--concurrency', '--modes', '--users', '--big-data', '--log-rows'] },
];

/** Each script is the one its npm script runs. */
it('the npm scripts run these files', () => {
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const serverPkg = JSON.parse(readFileSync(join(server, 'package.json'), 'utf8'));
  expect(rootPkg.scripts.import).toBe('tsx apps/server/src/import/cli.ts');
  expect(serverPkg.scripts['seed:big']).toBe('tsx bench/seed-big-cli.ts');
  expect(serverPkg.scripts.bench).toBe('tsx bench/cli.ts');
  expect(rootPkg.scripts.bench).toBe('npm run bench -w apps/server');
});

describe.each(scripts)('npm run $npm', ({ npm, file, valued, flags }) => {
  it('prints its usage to stdout and exits 0 on --help and -h', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await run(file, [flag]);
      expect(r, flag).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout.split('\n')[0]).toBe(`usage: npm run ${npm} -- [flags]`);
      for (const f of [...flags, '-h, --help']) expect(r.stdout, f).toContain(`  ${f}`);
    }
  });

  it('prints one line to stderr and exits 2 on an unknown flag', async () => {
    const r = await run(file, ['--no-such-flag']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `npm run ${npm}: unknown flag --no-such-flag (see --help)\n` });
  });

  it('prints one line to stderr and exits 2 on a flag missing its value', async () => {
    const r = await run(file, [valued]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^npm run ${npm.replace(':', '\\:')}: ${valued} needs a value \\([^)]+\\) \\(see --help\\)\\n$`));
  });
});

describe('usage errors the scripts find in the values', () => {
  const oneLine = (r: Run, text: string) => {
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(text);
  };
  it('import: --from is required, --batch within 1 to 5000', async () => {
    oneLine(await run(scripts[0].file, ['--dry-run']), '--from is required');
    oneLine(await run(scripts[0].file, ['--from', 'x.db', '--batch', '9000']), '--batch must be a whole number from 1 to 5000');
  });
  it('bench: a storage configuration it cannot run, a mode it does not know (before building anything)', async () => {
    oneLine(await run(scripts[2].file, ['--storage', 'sqlite*2']), 'several nodes need a shared database');
    oneLine(await run(scripts[2].file, ['--modes', 'xml']), '--modes must be json, stream or json,stream');
    oneLine(await run(scripts[2].file, ['--workers', '1,0']), '--workers must be a comma-separated list of whole numbers from 1 up');
  });
});

describe('seed:big off a terminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints its progress as plain lines on stderr and the summary on stdout', async () => {
    const r = await run(scripts[1].file, ['--dsn', join(dir, 'seed.db'), '--users', '3', '--tokens', '4', '--channels', '1', '--logs', '20', '--days', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^seeded sqlite: 3 users, 4 tokens, 1 channels, 20 log rows over 1 days in [\d.]+ s/);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/[\r\x1b]/);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('migrating');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^migrated in /), expect.stringMatching(/^seeded users /), expect.stringMatching(/^seeded logs and roll-up /)]));
  });
});
