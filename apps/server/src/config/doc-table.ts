import { z } from 'zod';
import { EnvSchema } from './env.js';

/** The markers in docs/configuration.md between which `npm run docs:config` writes the table. */
export const CONFIG_BEGIN = '<!-- config:begin -->';
export const CONFIG_END = '<!-- config:end -->';

interface Property {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A boolean flag is a string read as `true`/`1` (a transform), which the JSON Schema shows as a string. */
function isFlag(field: z.ZodType): boolean {
  const def = (field as unknown as { _zod: { def: { type: string; out?: { _zod: { def: { type: string } } } } } })._zod.def;
  return def.type === 'pipe' && def.out?._zod.def.type === 'transform';
}

function typeOf(field: z.ZodType, p: Property): string {
  if (isFlag(field)) return 'boolean (`true` or `1`)';
  if (p.enum) return p.enum.map((v) => `\`${String(v)}\``).join(', ');
  let type = p.type ?? 'string';
  if (p.minimum !== undefined && p.maximum !== undefined) type += ` ${p.minimum}–${p.maximum}`;
  else if (p.minimum !== undefined) type += ` ≥ ${p.minimum}`;
  return type;
}

function defaultOf(field: z.ZodType, p: Property): string {
  if (isFlag(field)) return '`false`';
  if (p.default === undefined) return '—';
  if (p.default === '') return '`""`';
  return `\`${String(p.default)}\``;
}

/** The settings table, one row per key of the configuration schema, in the schema's order. */
export function configTable(): string {
  const json = z.toJSONSchema(EnvSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, Property> };
  const rows = ['| variable | YAML key | type | default | description |', '|---|---|---|---|---|'];
  for (const [name, field] of Object.entries(EnvSchema.shape) as [string, z.ZodType][]) {
    const p = json.properties[name];
    if (!p.description) throw new Error(`${name} has no description in the configuration schema (add .describe())`);
    rows.push(`| \`${name}\` | \`${name.toLowerCase()}\` | ${cell(typeOf(field, p))} | ${cell(defaultOf(field, p))} | ${cell(p.description)} |`);
  }
  return rows.join('\n');
}

/** `page` with the part between the markers replaced by the current table. */
export function rewriteConfigDoc(page: string): string {
  const begin = page.indexOf(CONFIG_BEGIN);
  const end = page.indexOf(CONFIG_END);
  if (begin < 0 || end < begin) throw new Error(`the page has no ${CONFIG_BEGIN} … ${CONFIG_END} markers`);
  return `${page.slice(0, begin + CONFIG_BEGIN.length)}\n${configTable()}\n${page.slice(end)}`;
}
