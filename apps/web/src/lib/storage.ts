/** Every local-storage key the console reads or writes (console-spec §3, console-screens §7). */
export const STORAGE = {
  user: 'user',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  siteInfo: 'siteInfo',
  theme: 'theme',
  appLanguage: 'appLanguage',
  defaultLanguage: 'default_language',
  notice: 'notice',
  i18nextLng: 'i18nextLng',
  homePageContent: 'home_page_content',
  about: 'about',
  aff: 'aff',
} as const;

export function readString(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage full or blocked: the app keeps working from memory
  }
}

export function remove(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // ignored, as above
  }
}

export function readJson<T>(key: string): T | null {
  const text = readString(key);
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, JSON.stringify(value));
}
