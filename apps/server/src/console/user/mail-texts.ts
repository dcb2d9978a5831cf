/** Texts of the account mails in the console's four languages. */
export const MAIL_LANGUAGES = ['zh_CN', 'zh_HK', 'en_US', 'ja_JP'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

interface MailTexts {
  verifySubject: (site: string) => string;
  verifyBody: (code: string) => string;
  resetSubject: (site: string) => string;
  resetBody: (link: string) => string;
}

export const MAIL_TEXTS: Record<MailLanguage, MailTexts> = {
  zh_CN: {
    verifySubject: (s) => `${s} 邮箱验证邮件`,
    verifyBody: (c) => `<p>您的验证码为: <strong>${c}</strong></p><p>验证码 10 分钟内有效。</p>`,
    resetSubject: (s) => `${s} 密码重置`,
    resetBody: (l) => `<p>点击 <a href="${l}">此处</a> 重置密码，链接 10 分钟内有效。</p>`,
  },
  zh_HK: {
    verifySubject: (s) => `${s} 電郵驗證`,
    verifyBody: (c) => `<p>您的驗證碼為: <strong>${c}</strong></p><p>驗證碼 10 分鐘內有效。</p>`,
    resetSubject: (s) => `${s} 重設密碼`,
    resetBody: (l) => `<p>點擊 <a href="${l}">此處</a> 重設密碼，連結 10 分鐘內有效。</p>`,
  },
  en_US: {
    verifySubject: (s) => `${s} e-mail verification`,
    verifyBody: (c) => `<p>Your verification code is: <strong>${c}</strong></p><p>It is valid for 10 minutes.</p>`,
    resetSubject: (s) => `${s} password reset`,
    resetBody: (l) => `<p>Click <a href="${l}">here</a> to reset your password. The link is valid for 10 minutes.</p>`,
  },
  ja_JP: {
    verifySubject: (s) => `${s} メールアドレスの確認`,
    verifyBody: (c) => `<p>確認コード: <strong>${c}</strong></p><p>コードの有効期限は 10 分です。</p>`,
    resetSubject: (s) => `${s} パスワードの再設定`,
    resetBody: (l) => `<p><a href="${l}">こちら</a>をクリックしてパスワードを再設定してください。リンクの有効期限は 10 分です。</p>`,
  },
};

/** The first of the four languages the request's Accept-Language names (zh-TW/zh-Hant → zh_HK), else the default. */
export function mailLanguage(acceptLanguage: string | undefined, fallback: string): MailLanguage {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase();
    if (/^zh-(hk|tw|mo|hant)/.test(tag)) return 'zh_HK';
    if (tag.startsWith('zh')) return 'zh_CN';
    if (tag.startsWith('en')) return 'en_US';
    if (tag.startsWith('ja')) return 'ja_JP';
  }
  return (MAIL_LANGUAGES as readonly string[]).includes(fallback) ? (fallback as MailLanguage) : 'zh_CN';
}
