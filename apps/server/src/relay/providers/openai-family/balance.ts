import type { ChannelTarget, UpstreamRequest } from '../types.js';

/** Sends a GET and answers the parsed JSON (non-2xx answers throw the provider's error). */
export type GetJson = (req: UpstreamRequest) => Promise<unknown>;

export type BalanceQuery = (channel: ChannelTarget, auth: Record<string, string>, get: GetJson) => Promise<number | null>;

const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

const base = (c: ChannelTarget) => c.baseUrl.replace(/\/+$/, '');
const day = (d: Date) => d.toISOString().slice(0, 10);

/** A provider whose balance is one GET and one number in the answer. */
function single(path: string, read: (json: any) => number | null): BalanceQuery {
  return async (channel, auth, get) => read(await get({ url: `${base(channel)}${path}`, headers: auth, body: undefined }));
}

/**
 * OpenAI's dashboard billing (also served by many OpenAI-style resellers): the hard limit
 * minus this month's usage (the last 100 days when no payment method is set) — relay.md §7.3.
 */
export const openAIBilling: BalanceQuery = async (channel, auth, get) => {
  const sub = (await get({ url: `${base(channel)}/v1/dashboard/billing/subscription`, headers: auth, body: undefined })) as {
    hard_limit_usd?: unknown;
    has_payment_method?: unknown;
  };
  const limit = num(sub?.hard_limit_usd);
  if (limit === null) return null;
  const now = new Date();
  const start = sub.has_payment_method === false ? new Date(now.getTime() - 100 * 86_400_000) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const usage = (await get({
    url: `${base(channel)}/v1/dashboard/billing/usage?start_date=${day(start)}&end_date=${day(now)}`,
    headers: auth,
    body: undefined,
  })) as { total_usage?: unknown };
  return limit - (num(usage?.total_usage) ?? 0) / 100;
};

/** DeepSeek: the first currency's total balance (CNY or USD, not converted). */
export const deepseekBalance = single('/user/balance', (j) => num(j?.balance_infos?.[0]?.total_balance));

/**
 * Moonshot's China platform reports CNY, stored in USD at the fixed rate of 7 the original used;
 * the international platform (api.moonshot.ai) already reports USD.
 */
export const moonshotBalance: BalanceQuery = async (channel, auth, get) => {
  const j = (await get({ url: `${base(channel)}/v1/users/me/balance`, headers: auth, body: undefined })) as { data?: { available_balance?: unknown } };
  const amount = num(j?.data?.available_balance);
  if (amount === null) return null;
  return new URL(base(channel)).hostname.endsWith('moonshot.ai') ? amount : amount / 7;
};

/** SiliconFlow: `data.totalBalance` (CNY, a string). */
export const siliconflowBalance = single('/v1/user/info', (j) => num(j?.data?.totalBalance));

/** OpenRouter: credits bought minus credits used (USD). */
export const openrouterBalance = single('/v1/credits', (j) => {
  const total = num(j?.data?.total_credits);
  return total === null ? null : total - (num(j?.data?.total_usage) ?? 0);
});

/** Recraft: credits, 1000 to the dollar. */
export const recraftBalance = single('/v1/users/me', (j) => {
  const credits = num(j?.credits);
  return credits === null ? null : credits / 1000;
});
