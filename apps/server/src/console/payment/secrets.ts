import { PAYMENT_SECRET_KEYS, SECRET_PLACEHOLDER } from '@one-hub/contract';
import { gatewayConfig } from './providers/config.js';

/** The config JSON as the console API answers it: every set secret replaced by the placeholder. */
export function maskConfig(config: string | null): string {
  if (!config?.trim()) return '';
  const cfg = gatewayConfig({ config });
  for (const k of PAYMENT_SECRET_KEYS) if (k in cfg) cfg[k] = cfg[k] ? SECRET_PLACEHOLDER : '';
  return JSON.stringify(cfg);
}

/** An updated config: a secret sent blank or as the placeholder keeps the stored value. */
export function mergeConfig(stored: string | null, incoming: string): string {
  if (!incoming.trim()) return incoming;
  const before = gatewayConfig({ config: stored });
  const next = JSON.parse(incoming) as Record<string, unknown>;
  for (const k of PAYMENT_SECRET_KEYS) {
    const v = next[k];
    if ((v === undefined || v === '' || v === SECRET_PLACEHOLDER) && before[k]) next[k] = before[k];
  }
  return JSON.stringify(next);
}
