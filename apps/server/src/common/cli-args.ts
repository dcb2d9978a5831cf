/**
 * The command-line conventions of every script a user runs (`npm run import`, `npm run seed:big`,
 * `npm run bench`): `--help`/`-h` prints the usage to stdout and exits 0; an unknown flag, a flag
 * without its value or a bad value prints one line to stderr and exits 2; progress is one updating
 * line on a terminal and plain lines otherwise.
 */

export interface FlagSpec {
  /** The long name, without `--`. */
  name: string;
  /** The value's placeholder in the usage (`<file>`, `N`); absent for a switch (`--dry-run`). */
  value?: string;
  help: string;
  /** Shown in the usage; the caller applies it. */
  defaultText?: string;
}

export interface CliSpec {
  /** How the user runs it: `npm run import --`. */
  command: string;
  summary: string;
  flags: readonly FlagSpec[];
  /** Lines after the flags (environment variables, examples). */
  notes?: readonly string[];
}

/** A flag's value (a string), `true` for a switch given, absent when not given. */
export type CliValues = Record<string, string | true | undefined>;

/** Wrong usage: reported on one line with exit code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** The usage text printed by --help. */
export function usage(spec: CliSpec): string {
  const flags = [...spec.flags, { name: 'help', help: 'print this help and exit' }];
  const left = flags.map((f) => `  ${f.name === 'help' ? '-h, ' : ''}--${f.name}${f.value ? ` ${f.value}` : ''}`);
  const width = Math.max(...left.map((l) => l.length)) + 2;
  const lines = flags.map((f, i) => `${left[i].padEnd(width)}${f.help}${f.defaultText ? ` (default: ${f.defaultText})` : ''}`);
  return [`usage: ${spec.command} [flags]`, '', spec.summary, '', 'flags:', ...lines, ...(spec.notes?.length ? ['', ...spec.notes] : []), ''].join('\n');
}

/**
 * Reads `--name value`, `--name=value` and switches; `help: true` when -h/--help is among them
 * (whatever else is wrong). Throws CliUsageError on an unknown flag, a missing value, a value
 * given to a switch, a repeated flag or a stray argument.
 */
export function parseCli(spec: CliSpec, argv: readonly string[]): { help: boolean; values: CliValues } {
  if (argv.some((a) => a === '--help' || a === '-h')) return { help: true, values: {} };
  const byName = new Map(spec.flags.map((f) => [f.name, f]));
  const values: CliValues = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (/^-[^-]/.test(arg)) throw new CliUsageError(`unknown flag ${arg}`);
    if (!arg.startsWith('--') || arg === '--') throw new CliUsageError(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const flag = byName.get(name);
    if (!flag) throw new CliUsageError(`unknown flag --${name}`);
    if (values[name] !== undefined) throw new CliUsageError(`--${name} is given twice`);
    if (!flag.value) {
      if (eq >= 0) throw new CliUsageError(`--${name} takes no value`);
      values[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    if (value === undefined || value === '') throw new CliUsageError(`--${name} needs a value (${flag.value})`);
    values[name] = value;
  }
  return { help: false, values };
}

/** A whole number within bounds (`_` allowed as a digit separator: 2_000_000), or CliUsageError. */
export function intFlag(values: CliValues, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && /^\d[\d_]*$/.test(raw) ? Number(raw.replace(/_/g, '')) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new CliUsageError(`--${name} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

/** A positive number (fractions allowed), or CliUsageError. */
export function positiveFlag(values: CliValues, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!(n > 0) || !Number.isFinite(n)) throw new CliUsageError(`--${name} must be a positive number, not ${JSON.stringify(raw)}`);
  return n;
}

interface Io {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  exit(code: number): never;
}

/**
 * parseCli for a script's entry: --help prints the usage and exits 0, wrong usage prints
 * `<command>: <reason> (see --help)` and exits 2. `check` validates the values further
 * (its CliUsageError is wrong usage too).
 */
export function cliValues<T = CliValues>(spec: CliSpec, argv: readonly string[], check?: (values: CliValues) => T, io: Io = process): T {
  try {
    const { help, values } = parseCli(spec, argv);
    if (help) {
      io.stdout.write(usage(spec));
      return io.exit(0);
    }
    return check ? check(values) : (values as T);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr.write(`${usageName(spec)}: ${error.message} (see --help)\n`);
    return io.exit(2);
  }
}

const usageName = (spec: CliSpec) => spec.command.replace(/\s+--$/, '');

/** What the script's own usage error (found after parsing) prints: one line, exit 2. */
export function usageFailure(spec: CliSpec, message: string, io: Io = process): never {
  io.stderr.write(`${usageName(spec)}: ${message} (see --help)\n`);
  return io.exit(2);
}

export interface ProgressLine {
  /** The current state: rewrites the line on a terminal; a plain line otherwise (at most one a second, but `force`). */
  update(text: string, force?: boolean): void;
  /** Leaves the last state on its own line (a terminal), or prints it if it was held back. */
  done(text?: string): void;
  /** Takes the line away (a terminal) before other output, such as a result on stdout; drops a held-back state. */
  clear(): void;
}

/**
 * Progress on `stream` (stderr by default, so stdout keeps only results): on a terminal one line
 * rewritten in place; otherwise (a pipe, a file, CI) plain lines, throttled to one a second.
 */
export function progressLine(stream: { isTTY?: boolean; write(s: string): unknown } = process.stderr, now: () => number = Date.now): ProgressLine {
  const tty = Boolean(stream.isTTY);
  let shown = '';
  let pending: string | undefined;
  let last = -Infinity;
  return {
    update(text, force = false) {
      if (tty) {
        stream.write(`\r${text}\x1b[K`);
        shown = text;
        return;
      }
      if (force || now() - last >= 1000) {
        stream.write(`${text}\n`);
        last = now();
        pending = undefined;
      } else pending = text;
    },
    done(text) {
      if (tty) {
        if (text !== undefined) stream.write(`\r${text}\x1b[K`);
        if (text !== undefined || shown) stream.write('\n');
        shown = '';
        return;
      }
      const final = text ?? pending;
      if (final !== undefined) stream.write(`${final}\n`);
      pending = undefined;
      last = now();
    },
    clear() {
      if (tty && shown) stream.write('\r\x1b[K');
      shown = '';
      pending = undefined;
    },
  };
}
