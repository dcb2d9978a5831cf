import type { FastifyInstance } from 'fastify';
import type { SiteStatus } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { ok } from '../../http/envelope.js';
import { botOf } from '../../bot/registry.js';
import { setupRequired } from '../setup/service.js';

/** GET /api/status: everything the console needs before sign-in (api.md §11.1). No secrets. */
export function siteStatus(ctx: AppContext): Omit<SiteStatus, 'setup_required'> {
  const o = ctx.options;
  return {
    version: ctx.version,
    start_time: ctx.startTime,
    email_verification: o.get('EmailVerificationEnabled'),
    github_oauth: o.get('GitHubOAuthEnabled'),
    github_client_id: o.get('GitHubClientId'),
    oidc_auth: o.get('OIDCAuthEnabled'),
    lark_login: o.get('LarkAuthEnabled'),
    lark_client_id: o.get('LarkClientId'),
    linuxdo_oauth: o.get('LinuxDoOAuthEnabled'),
    linuxdo_client_id: o.get('LinuxDoClientId'),
    system_name: o.get('SystemName'),
    logo: o.get('Logo'),
    language: ctx.config.LANGUAGE,
    footer_html: o.get('Footer'),
    analytics_code: o.get('AnalyticsCode'),
    wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
    wechat_login: o.get('WeChatAuthEnabled'),
    server_address: o.get('ServerAddress'),
    turnstile_check: o.get('TurnstileCheckEnabled'),
    turnstile_site_key: o.get('TurnstileSiteKey'),
    top_up_link: o.get('TopUpLink'),
    chat_link: o.get('ChatLink'),
    quota_per_unit: o.get('QuotaPerUnit'),
    display_in_currency: o.get('DisplayInCurrencyEnabled'),
    telegram_bot: botOf(ctx)?.running() ? botOf(ctx)!.username() : '',
    mj_notify_enabled: o.get('MjNotifyEnabled'),
    chat_links: o.get('ChatLinks'),
    PaymentUSDRate: o.get('PaymentUSDRate'),
    PaymentMinAmount: o.get('PaymentMinAmount'),
    RechargeDiscount: o.get('RechargeDiscount'),
    EnableSafe: o.get('EnableSafe'),
    SafeToolName: o.get('SafeToolName'),
    // The word list itself is not published: it would tell abusers what to avoid.
    SafeKeyWords: [],
    UserInvoiceMonth: ctx.config.USER_INVOICE_MONTH,
    UptimeDomain: ctx.config.UPTIME_KUMA_DOMAIN,
    UptimePageName: ctx.config.UPTIME_KUMA_STATUS_PAGE_NAME,
    UptimeEnabled: ctx.config.UPTIME_KUMA_ENABLE,
    release_feed: Boolean(ctx.config.RELEASE_FEED_URL),
    password_login: o.get('PasswordLoginEnabled'),
    password_register: o.get('PasswordRegisterEnabled'),
    register_enabled: o.get('RegisterEnabled'),
    degraded: ctx.store.degraded,
  };
}

export function registerStatusRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/status', async () => ok<SiteStatus>({ ...siteStatus(ctx), setup_required: await setupRequired(ctx) }));
  app.get('/notice', async () => ok(ctx.options.get('Notice')));
  app.get('/about', async () => ok(ctx.options.get('About')));
  app.get('/home_page_content', async () => ok(ctx.options.get('HomePageContent')));
}
