export const LANGUAGES = [
  { code: 'zh_CN', label: '简体中文' },
  { code: 'zh_HK', label: '繁體中文' },
  { code: 'en_US', label: 'English' },
  { code: 'ja_JP', label: '日本語' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];
export const FALLBACK_LANGUAGE: Language = 'zh_CN';

/** Maps any browser or stored tag (en, en-GB, zh-TW, zh-Hant, ja-JP, zh_HK…) to a console language, or null. */
export function normalizeLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const t = tag.trim().replace('-', '_').toLowerCase();
  if (!t) return null;
  if (t.startsWith('en')) return 'en_US';
  if (t.startsWith('ja')) return 'ja_JP';
  if (t.startsWith('zh')) return /^zh_(hk|tw|mo|hant)/.test(t) ? 'zh_HK' : 'zh_CN';
  return null;
}

/** Console-spec §9: the stored choice, then the server's language, then zh_CN. */
export function pickLanguage(appLanguage: string | null, serverLanguage: string | null | undefined): Language {
  return normalizeLanguage(appLanguage) ?? normalizeLanguage(serverLanguage) ?? FALLBACK_LANGUAGE;
}
