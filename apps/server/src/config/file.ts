import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';

/** A YAML key path's environment name (api.md §5): upper-cased, dots become underscores. */
export const envName = (path: string) => path.replace(/\./g, '_').toUpperCase();

export interface ConfigFile {
  path: string;
  /** Settings by environment name, as text. */
  values: Record<string, string>;
  /** Environment name → the key as written in the file (for messages). */
  keys: Record<string, string>;
}

export class ConfigError extends Error {}

/** The `--name value` or `--name=value` command-line flag, if given. */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new ConfigError(`--${name} needs a value`);
      return value;
    }
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
  }
  return undefined;
}

/** Which file to read: `--config`, else CONFIG_FILE, else ./config.yaml when it exists (a missing default is no error). */
export function configPath(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): { path: string; required: boolean } | undefined {
  const given = flagValue(argv, 'config') ?? env.CONFIG_FILE;
  if (given) return { path: resolve(cwd, given), required: true };
  const fallback = resolve(cwd, 'config.yaml');
  return existsSync(fallback) ? { path: fallback, required: false } : undefined;
}

function flatten(node: unknown, prefix: string, file: ConfigFile, name: string): void {
  if (node === null || node === undefined) return;
  if (typeof node === 'object' && !Array.isArray(node)) {
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, file, name);
    return;
  }
  if (Array.isArray(node)) throw new ConfigError(`${name}: ${prefix} must be a single value, not a list`);
  const env = envName(prefix);
  file.values[env] = String(node);
  file.keys[env] = prefix;
}

/** Reads and flattens a YAML config file; syntax errors name the line. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line;
    throw new ConfigError(`${path}${line ? `:${line}` : ''}: invalid YAML: ${e.message.split('\n')[0]}`);
  }
  const data = doc.toJS() as unknown;
  const file: ConfigFile = { path, values: {}, keys: {} };
  if (data === null || data === undefined) return file;
  if (typeof data !== 'object' || Array.isArray(data)) throw new ConfigError(`${path}: the file must be a mapping of keys to values`);
  flatten(data, '', file, path);
  return file;
}
