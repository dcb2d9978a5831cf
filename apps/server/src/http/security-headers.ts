import type { OptionStore } from '../console/option/option-store.js';

const TURNSTILE = 'https://challenges.cloudflare.com';

/**
 * Content-Security-Policy of the console. MUI's emotion writes <style> tags at run time, so
 * style-src needs 'unsafe-inline'; scripts come only from the console itself and Turnstile.
 * Chat links and an About page given as a URL are framed, so frames may come from anywhere.
 * The AnalyticsCode option injects the admin's HTML with its inline and remote scripts:
 * while it is set, script-src also allows 'unsafe-inline' and https: (the trade-off of the option).
 * Forms may post to other sites: online top-up submits the signed Epay / Alipay form to the gateway,
 * and many Epay aggregators serve plain http.
 */
export function contentSecurityPolicy(withAnalytics: boolean): string {
  const scripts = withAnalytics ? `'self' 'unsafe-inline' https:` : `'self' ${TURNSTILE}`;
  return [
    `default-src 'self'`,
    `script-src ${scripts}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: https:`,
    `font-src 'self' data:`,
    `connect-src 'self'`,
    `frame-src 'self' https: http:`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self' https: http:`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/** The console's security headers, rebuilt only when AnalyticsCode changes. */
export function consoleHeaders(options: OptionStore): () => Record<string, string> {
  let analytics: boolean | undefined;
  let headers: Record<string, string> = {};
  return () => {
    const now = options.get('AnalyticsCode').trim() !== '';
    if (now !== analytics) {
      analytics = now;
      headers = {
        'content-security-policy': contentSecurityPolicy(now),
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
      };
    }
    return headers;
  };
}
