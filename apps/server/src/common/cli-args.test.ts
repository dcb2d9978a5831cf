import { describe, expect, it } from 'vitest';
import { cliValues, CliUsageError, intFlag, parseCli, positiveFlag, progressLine, usage, type CliSpec } from './cli-args.js';

const SPEC: CliSpec = {
  command: 'npm run thing --',
  summary: 'Does a thing.',
  flags: [
    { name: 'from', value: '<source>', help: 'where from' },
    { name: 'dry-run', help: 'write nothing' },
    { name: 'batch', value: 'N', help: 'rows per batch', defaultText: '1000' },
  ],
  notes: ['A note.'],
};

const usageError = (argv: string[]) => {
  try {
    parseCli(SPEC, argv);
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError);
    return (error as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

describe('parseCli', () => {
  it('reads values in both spellings and switches', () => {
    expect(parseCli(SPEC, ['--from', 'a.db', '--dry-run', '--batch=50'])).toEqual({ help: false, values: { from: 'a.db', 'dry-run': true, batch: '50' } });
    expect(parseCli(SPEC, [])).toEqual({ help: false, values: {} });
    // A value may contain `=` and start with a single dash.
    expect(parseCli(SPEC, ['--from=postgres://u:p@h/db?x=1', '--batch', '-5']).values).toEqual({ from: 'postgres://u:p@h/db?x=1', batch: '-5' });
  });

  it('answers help before anything else is checked', () => {
    expect(parseCli(SPEC, ['--nope', '-h']).help).toBe(true);
    expect(parseCli(SPEC, ['--from', '--help']).help).toBe(true);
  });

  it('refuses unknown flags, missing values, values to switches, repeats and stray arguments', () => {
    expect(usageError(['--nope'])).toBe('unknown flag --nope');
    expect(usageError(['--from'])).toBe('--from needs a value (<source>)');
    expect(usageError(['--from', '--dry-run'])).toBe('--from needs a value (<source>)');
    expect(usageError(['--from='])).toBe('--from needs a value (<source>)');
    expect(usageError(['--dry-run=yes'])).toBe('--dry-run takes no value');
    expect(usageError(['--batch', '1', '--batch', '2'])).toBe('--batch is given twice');
    expect(usageError(['a.db'])).toBe('unexpected argument "a.db"');
    expect(usageError(['-x'])).toBe('unknown flag -x');
    expect(usageError(['--'])).toBe('unexpected argument "--"');
  });

  it('checks numbers', () => {
    expect(intFlag({}, 'batch', 1000, 1, 5000)).toBe(1000);
    expect(intFlag({ batch: '2_000' }, 'batch', 1000, 1, 5000)).toBe(2000);
    expect(() => intFlag({ batch: '0' }, 'batch', 1000, 1, 5000)).toThrow('--batch must be a whole number from 1 to 5000, not "0"');
    expect(() => intFlag({ batch: '1.5' }, 'batch', 1000, 1)).toThrow('--batch must be a whole number from 1 up');
    expect(() => intFlag({ batch: 'many' }, 'batch', 1000, 1)).toThrow(CliUsageError);
    expect(positiveFlag({ days: '0.5' }, 'days')).toBe(0.5);
    expect(positiveFlag({}, 'days')).toBeUndefined();
    expect(() => positiveFlag({ days: '-1' }, 'days')).toThrow('--days must be a positive number, not "-1"');
    expect(() => positiveFlag({ days: 'Infinity' }, 'days')).toThrow(CliUsageError);
  });
});

describe('usage', () => {
  it('lists every flag with its value and default, -h/--help last, and the notes', () => {
    expect(usage(SPEC)).toBe(
      [
        'usage: npm run thing -- [flags]',
        '',
        'Does a thing.',
        '',
        'flags:',
        '  --from <source>  where from',
        '  --dry-run        write nothing',
        '  --batch N        rows per batch (default: 1000)',
        '  -h, --help       print this help and exit',
        '',
        'A note.',
        '',
      ].join('\n'),
    );
  });
});

describe('cliValues', () => {
  function io() {
    const out = { stdout: '', stderr: '', code: undefined as number | undefined };
    return {
      out,
      io: {
        stdout: { write: (s: string) => (out.stdout += s) },
        stderr: { write: (s: string) => (out.stderr += s) },
        exit: (code: number): never => {
          out.code = code;
          throw new Error(`exit ${code}`);
        },
      },
    };
  }

  it('prints the usage to stdout and exits 0 on --help', () => {
    const t = io();
    expect(() => cliValues(SPEC, ['--help'], undefined, t.io)).toThrow('exit 0');
    expect(t.out).toEqual({ stdout: usage(SPEC), stderr: '', code: 0 });
  });

  it('prints one line to stderr and exits 2 on wrong usage, also from the check', () => {
    const t = io();
    expect(() => cliValues(SPEC, ['--nope'], undefined, t.io)).toThrow('exit 2');
    expect(t.out).toEqual({ stdout: '', stderr: 'npm run thing: unknown flag --nope (see --help)\n', code: 2 });
    const u = io();
    const check = (v: Record<string, unknown>) => {
      if (!v.from) throw new CliUsageError('--from is required');
      return v;
    };
    expect(() => cliValues(SPEC, ['--dry-run'], check, u.io)).toThrow('exit 2');
    expect(u.out.stderr).toBe('npm run thing: --from is required (see --help)\n');
  });

  it('answers the checked values, and lets other errors through', () => {
    const t = io();
    expect(cliValues(SPEC, ['--batch', '7'], (v) => intFlag(v, 'batch', 1, 1), t.io)).toBe(7);
    expect(() => cliValues(SPEC, [], () => { throw new TypeError('bug'); }, t.io)).toThrow(TypeError);
    expect(t.out).toEqual({ stdout: '', stderr: '', code: undefined });
  });
});

describe('progressLine', () => {
  const sink = (isTTY: boolean) => {
    const writes: string[] = [];
    return { writes, stream: { isTTY, write: (s: string) => writes.push(s) } };
  };

  it('rewrites one line on a terminal and ends it once', () => {
    const s = sink(true);
    const p = progressLine(s.stream);
    p.update('users 1/3');
    p.update('users 2/3');
    p.done('users 3/3');
    p.done();
    p.update('tokens 1/2');
    p.clear();
    expect(s.writes.join('')).toBe('\rusers 1/3\x1b[K\rusers 2/3\x1b[K\rusers 3/3\x1b[K\n\rtokens 1/2\x1b[K\r\x1b[K');
  });

  it('prints plain lines otherwise, at most one a second unless forced, and the last state at the end', () => {
    const s = sink(false);
    let t = 0;
    const p = progressLine(s.stream, () => t);
    p.update('a 1/4');
    t = 200;
    p.update('a 2/4'); // held back
    p.update('step', true);
    t = 700;
    p.update('a 3/4'); // held back
    p.done();
    p.update('b 1/2', true);
    p.update('b 2/2'); // held back, then dropped
    p.clear();
    p.done();
    expect(s.writes.join('')).toBe('a 1/4\nstep\na 3/4\nb 1/2\n');
    expect(s.writes.join('')).not.toMatch(/[\r\x1b]/);
  });
});
