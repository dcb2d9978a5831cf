import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded (synchronously) at its first use, so a gateway that never needs it
 * (no Stripe gateway, no SMTP) does not keep its code in memory: stripe and nodemailer each cost
 * 3–4 MB of heap once loaded.
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
