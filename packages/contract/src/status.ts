/** GET /api/status answer (api.md §11.1). */
export interface SiteStatus {
  version: string;
  start_time: number;
  email_verification: boolean;
  github_oauth: boolean;
  github_client_id: string;
  oidc_auth: boolean;
  lark_login: boolean;
  lark_client_id: string;
  linuxdo_oauth: boolean;
  linuxdo_client_id: string;
  system_name: string;
  logo: string;
  language: string;
  footer_html: string;
  analytics_code: string;
  wechat_qrcode: string;
  wechat_login: boolean;
  server_address: string;
  turnstile_check: boolean;
  turnstile_site_key: string;
  top_up_link: string;
  chat_link: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  telegram_bot: string;
  mj_notify_enabled: boolean;
  chat_links: string;
  PaymentUSDRate: number;
  PaymentMinAmount: number;
  RechargeDiscount: string;
  EnableSafe: boolean;
  SafeToolName: string;
  SafeKeyWords: string[];
  UserInvoiceMonth: boolean;
  UptimeDomain: string;
  UptimePageName: string;
  UptimeEnabled: boolean;
  /** A release feed is configured (RELEASE_FEED_URL): the console offers "Check update". */
  release_feed: boolean;
  password_login: boolean;
  password_register: boolean;
  register_enabled: boolean;
  /** This node cannot reach its shared store (Redis): it serves on, re-reading tokens and users every few seconds. */
  degraded: boolean;
  /** No root user yet: the first run waits for the one-time setup link printed in the server log (the token is never here). */
  setup_required: boolean;
}

/** The latest release, as GET /api/option/release/latest answers it from the configured feed. */
export interface LatestRelease {
  tag_name: string;
  body: string;
  html_url: string;
}
