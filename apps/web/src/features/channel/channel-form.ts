import { cleanPlugins, type PluginValues } from './channel-plugins';
import { CHANNEL_TYPE_BY_ID, isValidJson, isValidModelPattern, trimTrailingSlash, type Channel } from '@one-hub/contract';

/** The channel dialog's fields as edited (console-screens §3.3). Lists are arrays; JSON editors hold text. */
export interface ChannelFormState {
  type: number;
  tag: string;
  name: string;
  base_url: string;
  other: string;
  groups: string[];
  models: string[];
  key: string;
  /** Create only: one key per line, one channel per key. */
  batch: boolean;
  model_mapping: string;
  model_headers: string;
  custom_parameter: string;
  disabled_stream: string[];
  proxy: string;
  test_model: string;
  only_chat: boolean;
  pre_cost: number;
  compatible_response: boolean;
  allow_extra_body: boolean;
  priority: string;
  weight: string;
  plugin: PluginValues;
}

export type ChannelFormErrors = Partial<Record<keyof ChannelFormState, string>>;

/** Types whose `other` field means something, with the default used when it is left empty. */
export const OTHER_FIELD: Record<number, { label: string; fallback?: string }> = {
  3: { label: 'apiVersion', fallback: '2024-05-01-preview' },
  18: { label: 'sparkVersion', fallback: 'v2.1' },
  17: { label: 'aliPlugin' },
  24: { label: 'region' },
  25: { label: 'geminiVersion' },
  42: { label: 'vertexRegion' },
  55: { label: 'apiVersion' },
};
/** A base URL is mandatory for Azure and Custom channels. */
export const BASE_URL_REQUIRED = new Set([3, 8]);

const split = (s: string | null | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const pretty = (text: string | null | undefined) => {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

export function channelToForm(c?: Partial<Channel> | null): ChannelFormState {
  const type = c?.type ?? 1;
  const catalogue = CHANNEL_TYPE_BY_ID.get(type);
  return {
    type,
    tag: c?.tag ?? '',
    name: c?.name ?? '',
    base_url: c?.base_url ?? '',
    other: c?.other ?? '',
    groups: c ? split(c.group) : ['default'],
    models: c ? split(c.models) : [...(catalogue?.models ?? [])],
    key: c?.key ?? '',
    batch: false,
    model_mapping: pretty(c?.model_mapping),
    model_headers: pretty(c?.model_headers),
    custom_parameter: pretty(c?.custom_parameter),
    disabled_stream: c?.disabled_stream ?? [],
    proxy: c?.proxy ?? '',
    test_model: c?.test_model ?? (catalogue?.models[0] ?? ''),
    only_chat: c?.only_chat ?? false,
    pre_cost: c?.pre_cost ?? 1,
    compatible_response: c?.compatible_response ?? false,
    allow_extra_body: c?.allow_extra_body ?? false,
    priority: String(c?.priority ?? 0),
    weight: String(c?.weight ?? 1),
    plugin: (c?.plugin as PluginValues | null | undefined) ?? {},
  };
}

/** A new type fills the empty fields with its defaults (models, test model). */
export function changeType(f: ChannelFormState, type: number): ChannelFormState {
  const catalogue = CHANNEL_TYPE_BY_ID.get(type);
  return {
    ...f,
    type,
    models: f.models.length ? f.models : [...(catalogue?.models ?? [])],
    test_model: f.test_model || (catalogue?.models[0] ?? ''),
    // another type's plugin parameters mean nothing here
    plugin: {},
  };
}

function isJsonObject(text: string): boolean {
  if (!isValidJson(text)) return false;
  const v: unknown = JSON.parse(text);
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The lowest priority and weight a channel takes (the messages name them). */
export const NUMBER_MIN = { priority: 0, weight: 1 } as const;

/**
 * Field → problem. Values starting with `validation.` are common i18n keys; the rest are channel keys.
 * `mode`: the key is required only on create; a tag edit has no name.
 */
export function validateChannelForm(f: ChannelFormState, mode: 'create' | 'edit' | 'tag'): ChannelFormErrors {
  const e: ChannelFormErrors = {};
  if (mode !== 'tag' && !f.name.trim()) e.name = 'validation.required';
  if (!CHANNEL_TYPE_BY_ID.has(f.type)) e.type = 'validation.required';
  if (BASE_URL_REQUIRED.has(f.type) && !f.base_url.trim()) e.base_url = 'validation.required';
  if ((mode === 'create' || mode === 'tag') && !f.key.trim()) e.key = 'validation.required';
  if (f.groups.length === 0) e.groups = 'validation.required';
  if (f.models.length === 0) e.models = 'validation.required';
  else if (!f.models.every(isValidModelPattern)) e.models = 'validation.wildcard';
  for (const k of ['model_mapping', 'model_headers', 'custom_parameter'] as const) {
    if (f[k].trim() && !isJsonObject(f[k])) e[k] = 'errors.jsonObject';
  }
  if (f.model_headers.trim() && isJsonObject(f.model_headers) && Object.values(JSON.parse(f.model_headers) as object).some((v) => typeof v !== 'string')) e.model_headers = 'errors.stringValues';
  if (f.proxy.trim() && !/^(https?|socks5h?):\/\//.test(f.proxy.trim())) e.proxy = 'errors.proxy';
  for (const k of ['priority', 'weight'] as const) {
    const n = Number(f[k]);
    if (String(f[k]).trim() === '' || !Number.isInteger(n) || n < NUMBER_MIN[k]) e[k] = 'validation.atLeast';
  }
  return e;
}

/** The request body: lists joined, JSON compacted, mapped source models added to the model list. */
export function formToBody(f: ChannelFormState) {
  const mapping = f.model_mapping.trim() ? (JSON.parse(f.model_mapping) as Record<string, string>) : null;
  const models = [...new Set([...f.models.map((m) => m.trim()), ...Object.keys(mapping ?? {})])].filter(Boolean);
  const other = f.other.trim() || OTHER_FIELD[f.type]?.fallback || '';
  const key = f.key
    .split('\n')
    .map((k) => k.trim())
    .filter(Boolean)
    .join('\n');
  return {
    type: f.type,
    tag: f.tag.trim(),
    name: f.name.trim(),
    base_url: trimTrailingSlash(f.base_url),
    other,
    group: [...new Set(f.groups)].join(','),
    models: models.join(','),
    key,
    model_mapping: mapping ? JSON.stringify(mapping, null, 2) : '',
    model_headers: f.model_headers.trim() ? JSON.stringify(JSON.parse(f.model_headers)) : '',
    custom_parameter: f.custom_parameter.trim() ? JSON.stringify(JSON.parse(f.custom_parameter)) : '',
    disabled_stream: [...new Set(f.disabled_stream.map((m) => m.trim()).filter(Boolean))],
    proxy: f.proxy.trim(),
    test_model: f.test_model.trim(),
    only_chat: f.only_chat,
    pre_cost: f.pre_cost,
    compatible_response: f.compatible_response,
    allow_extra_body: f.allow_extra_body,
    priority: Number(f.priority),
    weight: Number(f.weight),
    plugin: cleanPlugins(f.type, f.plugin),
  };
}

/** Free model entry: a comma splits the text into several models. */
export function splitModels(values: string[]): string[] {
  return [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
}
