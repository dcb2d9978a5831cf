import { z } from 'zod';

/**
 * Runtime options (api.md §4). Storage is text; `kind` says how the text is read.
 * `secret` options are never returned by GET /api/option/ and a blank value
 * sent back for them leaves them unchanged.
 */
export type OptionKind = 'bool' | 'int' | 'float' | 'string' | 'text' | 'json';

export interface OptionDef {
  kind: OptionKind;
  default: string;
  secret?: boolean;
}

export const OPTION_DEFS = {
  SystemName: { kind: 'string', default: 'One Hub' },
  Logo: { kind: 'string', default: '' },
  Footer: { kind: 'text', default: '' },
  Notice: { kind: 'text', default: '' },
  About: { kind: 'text', default: '' },
  HomePageContent: { kind: 'text', default: '' },
  ServerAddress: { kind: 'string', default: 'http://localhost:3000' },
  DisplayInCurrencyEnabled: { kind: 'bool', default: 'true' },
  QuotaPerUnit: { kind: 'float', default: '500000' },
  RetryTimes: { kind: 'int', default: '0' },
  RetryCooldownSeconds: { kind: 'int', default: '5' },
} as const satisfies Record<string, OptionDef>;

export type OptionKey = keyof typeof OPTION_DEFS;

type ValueOf<K extends OptionKind> = K extends 'bool' ? boolean : K extends 'int' | 'float' ? number : string;
export type OptionValue<K extends OptionKey> = ValueOf<(typeof OPTION_DEFS)[K]['kind']>;
export type OptionValues = { [K in OptionKey]: OptionValue<K> };

export function isOptionKey(key: string): key is OptionKey {
  return Object.prototype.hasOwnProperty.call(OPTION_DEFS, key);
}

/** Checks the text form of a value against its kind; answers an error message or null. */
export function checkOptionText(key: OptionKey, text: string): string | null {
  const def: OptionDef = OPTION_DEFS[key];
  switch (def.kind) {
    case 'bool':
      return text === 'true' || text === 'false' ? null : `${key} must be true or false`;
    case 'int':
      return /^-?\d+$/.test(text.trim()) ? null : `${key} must be an integer`;
    case 'float':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? null : `${key} must be a number`;
    case 'json':
      if (text.trim() === '') return null;
      try {
        JSON.parse(text);
        return null;
      } catch {
        return `${key} must be valid JSON`;
      }
    default:
      return null;
  }
}

export function readOptionText<K extends OptionKey>(key: K, text: string): OptionValue<K> {
  const def: OptionDef = OPTION_DEFS[key];
  switch (def.kind) {
    case 'bool':
      return (text === 'true') as OptionValue<K>;
    case 'int':
      return parseInt(text, 10) as OptionValue<K>;
    case 'float':
      return Number(text) as OptionValue<K>;
    default:
      return text as OptionValue<K>;
  }
}

/** `PUT /api/option/` body: one key and its value (booleans and numbers accepted as such). */
export const OptionUpdate = z.object({
  key: z.string().min(1).max(100),
  value: z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v)),
});
export type OptionUpdate = z.infer<typeof OptionUpdate>;
