import { OPTION_DEFS } from '@one-hub/contract';

/** Field names whose values are secrets wherever they appear (rows, payment configs, request bodies). */
const SECRET = /key|secret|password|token|cert|sign|private/i;
/** Fields that look secret by name but are not. */
const PLAIN = new Set(['model_mapping', 'token_id', 'token_name', 'key_count', 'public_key_id']);

/** A secret as the audit log shows it: that it is set, and its last 4 characters when long. */
export function maskValue(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length >= 16 ? `****${text.slice(-4)}` : '****';
}

function maskDeep(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecret(k) && typeof v !== 'object' ? maskValue(v) : maskDeep(v, depth + 1)]));
}

const isSecret = (name: string) => SECRET.test(name) && !PLAIN.has(name);

/** JSON text fields (a payment's `config`, a channel's `plugin`) are masked inside; unreadable text is masked whole. */
function maskJsonText(text: string): unknown {
  try {
    return JSON.stringify(maskDeep(JSON.parse(text)));
  } catch {
    return maskValue(text);
  }
}

/** A row or request body with every secret masked. An option row is masked by its registry flag. */
export function maskRecord(kind: string, row: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!row) return row;
  if (kind === 'option') {
    const def = OPTION_DEFS[String(row.key) as keyof typeof OPTION_DEFS] as { secret?: boolean } | undefined;
    return def?.secret || isSecret(String(row.key)) ? { ...row, value: maskValue(row.value) } : row;
  }
  const out = maskDeep(row) as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) if (typeof v === 'string' && v.trim().startsWith('{')) out[k] = maskJsonText(v);
  return out;
}
