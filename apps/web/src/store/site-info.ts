import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SiteStatus } from '@one-hub/contract';

/** Site info: the status answer plus `isLoading` (console-spec §3). Unknown extra fields are kept. */
export type SiteInfo = Partial<SiteStatus> & {
  chat_link: string;
  display_in_currency: boolean;
  email_verification: boolean;
  footer_html: string;
  github_client_id: string;
  github_oauth: boolean;
  oidc_auth: boolean;
  logo: string;
  quota_per_unit: number;
  server_address: string;
  start_time: number;
  system_name: string;
  language: string;
  top_up_link: string;
  turnstile_check: boolean;
  turnstile_site_key: string;
  version: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  lark_login: boolean;
  lark_client_id: string;
  telegram_bot: string;
  linuxdo_oauth?: boolean;
  linuxdo_client_id?: string;
  isLoading: boolean;
};

export const SITE_INFO_DEFAULTS: SiteInfo = {
  chat_link: '',
  display_in_currency: true,
  email_verification: false,
  footer_html: '',
  github_client_id: '',
  github_oauth: false,
  oidc_auth: false,
  logo: '',
  quota_per_unit: 500000,
  server_address: '',
  start_time: 0,
  system_name: 'One Hub',
  language: 'zh_CN',
  top_up_link: '',
  turnstile_check: false,
  turnstile_site_key: '',
  version: '',
  wechat_login: false,
  wechat_qrcode: '',
  lark_login: false,
  lark_client_id: '',
  telegram_bot: '',
  isLoading: true,
};

/** Merges a status answer (or a stored copy) into the defaults; an empty chat_link is dropped. Pure. */
export function siteInfoFrom(status: Partial<SiteStatus> | null | undefined): SiteInfo {
  const next: SiteInfo = { ...SITE_INFO_DEFAULTS, ...(status ?? {}), isLoading: false };
  if (!status?.chat_link) next.chat_link = SITE_INFO_DEFAULTS.chat_link;
  if (!next.system_name) next.system_name = SITE_INFO_DEFAULTS.system_name;
  return next;
}

const slice = createSlice({
  name: 'siteInfo',
  initialState: SITE_INFO_DEFAULTS,
  reducers: {
    setSiteInfo: (_s, a: PayloadAction<SiteInfo>) => a.payload,
  },
});

export const { setSiteInfo } = slice.actions;
export default slice.reducer;
