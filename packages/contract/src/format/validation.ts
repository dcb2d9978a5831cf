import { z } from 'zod';
import { text } from './text.js';

/**
 * The console's form rules (console-spec §5). Messages are i18n keys of the web's `validation.*`
 * texts, so each side renders them in the reader's language. A bound is worded with its figure
 * ("Must be at least 1", "At most 255 characters"): the web reads it from the zod issue.
 */
export const V = {
  required: 'validation.required',
  json: 'validation.json',
  /** A number below its bound: "Must be at least {{min}}". */
  min: 'validation.atLeast',
  email: 'validation.email',
  match: 'validation.passwordMismatch',
  wildcard: 'validation.wildcard',
  integer: 'validation.integer',
  /** A number above its bound: "Must be at most {{max}}". */
  max: 'validation.atMost',
  /** A text longer than its bound: "At most {{max}} characters". */
  maxLength: 'validation.maxLength',
  unique: 'validation.unique',
  english: 'validation.english',
  tooShort: 'validation.tooShort',
  nonZero: 'validation.nonZero',
  overBalance: 'validation.overBalance',
  tooLong: 'validation.tooLong',
  url: 'validation.url',
} as const;

/** Trims every string inside a value, however deep (objects and arrays are copied). */
export function trimDeep<T>(value: T): T {
  if (typeof value === 'string') return value.trim() as T;
  if (Array.isArray(value)) return value.map(trimDeep) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimDeep(v)])) as T;
  }
  return value;
}

export function trimTrailingSlash(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

export function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `*` only as the last character with at least one character before it. */
export function isValidModelPattern(model: string): boolean {
  const star = model.indexOf('*');
  return star === -1 || (star === model.length - 1 && star > 0);
}

const required = text().trim().min(1, V.required);
const jsonText = text()
  .trim()
  .refine((s) => s === '' || isValidJson(s), V.json);
const nonNegative = z.coerce.number({ error: V.required }).min(0, V.min);

export const ChannelForm = z.object({
  name: required,
  type: z.coerce.number({ error: V.required }).int().positive(V.required),
  base_url: text().trim().transform(trimTrailingSlash),
  key: required,
  models: z.array(text().trim().min(1).refine(isValidModelPattern, V.wildcard)).min(1, V.required),
  group: z.array(text().trim().min(1)).min(1, V.required),
  model_mapping: jsonText,
  model_headers: jsonText,
  priority: z.coerce.number().int().min(0, V.min),
  weight: z.coerce.number().int().min(1, V.min),
  test_model: text().trim(),
});

/** A channel test needs a test model first. */
export const ChannelTestable = z.object({ test_model: required });

export const PaymentForm = z.object({
  name: required,
  type: required,
  currency: required,
  icon: required,
  fixed_fee: nonNegative,
  /** A fraction: 5 % is 0.05. */
  percent_fee: nonNegative.max(1, V.max),
  sort: nonNegative,
});

export const PricingForm = z.object({
  name: required,
  type: z.enum(['tokens', 'times'], { error: V.required }),
  channel_type: z.coerce.number({ error: V.required }).int().min(0),
  models: z
    .array(required)
    .min(1, V.required)
    .refine((m) => new Set(m).size === m.length, V.unique),
  input: nonNegative,
  output: nonNegative,
});

export const RedemptionForm = z.object({
  name: required,
  count: z.coerce.number().int(V.integer).min(1, V.min),
  quota: nonNegative,
});

export const UserForm = z.object({
  username: required,
  password: required,
  group: required,
  quota: nonNegative.optional(),
});

export const ProfileForm = z.object({
  username: text().trim().min(3, V.tooShort),
  display_name: text().trim(),
  password: z.union([z.literal(''), text().min(8, V.tooShort)]),
});

/** One row of the settings chat-link grid (console-screens §3.6). */
export const ChatLinkForm = z.object({
  name: required,
  url: required,
  show: z.boolean(),
  sort: z.coerce.number({ error: V.required }).int(V.integer).min(0, V.min),
});

export const LoginForm = z.object({ username: required, password: text().min(1, V.required) });

export const RegisterForm = z
  .object({
    username: required,
    password: text().min(1, V.required),
    password2: text().min(1, V.required),
    email: text().trim(),
    verification_code: text().trim(),
  })
  .refine((v) => v.password === v.password2, { message: V.match, path: ['password2'] });

/** Register form when e-mail verification is on: e-mail and code become required. */
export const RegisterWithEmailForm = RegisterForm.safeExtend({
  email: z.email(V.email),
  verification_code: required,
}).refine((v) => v.password === v.password2, { message: V.match, path: ['password2'] });

export const EmailForm = z.object({ email: z.email(V.email) });

export const TOPUP_MAX = 1_000_000;
export function topUpForm(minAmount: number) {
  return z.object({
    amount: z.coerce
      .number({ error: V.required })
      .int(V.integer)
      .positive(V.min)
      .min(Math.max(1, minAmount), V.min)
      .max(TOPUP_MAX, V.max),
    gateway: z.coerce.number({ error: V.required }).int().positive(V.required),
  });
}

/** Telegram's own rule for bot commands: 1-32 letters, digits or _ (sent lower-cased), `/` optional. */
export const TelegramMenuForm = z.object({
  command: required.regex(/^\/?[A-Za-z0-9_]{1,32}$/, V.english),
  description: required.max(255, V.maxLength),
  reply_message: required,
  parse_mode: required,
});

/** A number input: blank is "required", not 0. */
const numberInput = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number({ error: V.required }));
const wholeInput = (min: number) => numberInput.pipe(z.number().int(V.integer).min(min, V.min));

export const UserGroupForm = z
  .object({
    name: required,
    symbol: text().trim().regex(/^[A-Za-z0-9_-]+$/, V.english),
    ratio: numberInput.pipe(z.number().min(0, V.min)),
    /** Requests per minute. */
    api_rate: wholeInput(0),
    promotion: z.boolean(),
    /** Recharge range in dollars for the automatic upgrade. */
    min: wholeInput(0),
    max: wholeInput(0),
    public: z.boolean(),
  })
  .superRefine((g, ctx) => {
    // the upper end of the upgrade range is at least its lower end ("Must be at least 50")
    if (g.promotion && g.max < g.min) ctx.addIssue({ code: 'custom', message: V.min, path: ['max'], params: { minimum: g.min } });
  });

/** The admin's quota change in dollars (console-screens §3.9): signed, never 0, at most the balance deducted. */
export function quotaChangeForm(balanceDollars: number) {
  return z.object({
    amount: numberInput
      .pipe(z.number().refine((n) => n !== 0, V.nonZero))
      .refine((n) => n >= -Math.max(0, balanceDollars) - 1e-9, V.overBalance),
    remark: text().trim().max(200, V.maxLength),
  });
}

/** Admin user dialog: password required on create, optional (blank = unchanged) on edit. */
export function userForm(creating: boolean) {
  return z.object({
    username: required.max(100, V.maxLength),
    display_name: text().trim().max(20, V.maxLength),
    password: creating ? text().min(8, V.tooShort).max(20, V.maxLength) : z.union([z.literal(''), text().min(8, V.tooShort).max(20, V.maxLength)]),
    group: creating ? text().trim() : required,
  });
}

/** Symbols must be unique among the groups that exist (the edited one excluded). */
export function isUniqueSymbol(symbol: string, taken: readonly string[]): boolean {
  return !taken.includes(symbol.trim());
}
