import { localDay } from '../../lib/chart-data';

export type Preset = 'today' | 'week' | 'month';
export const PRESETS: readonly Preset[] = ['today', 'week', 'month'];

/** A preset's inclusive day range ('YYYY-MM-DD', local) on the day of `now`. */
export function presetRange(preset: Preset, now = new Date()): [string, string] {
  const today = localDay(now);
  if (preset === 'today') return [today, today];
  if (preset === 'week') return [localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6)), today];
  return [localDay(new Date(now.getFullYear(), now.getMonth(), 1)), today];
}

/** The dayjs locale of a console language. */
export function dayjsLocale(language: string): 'zh-cn' | 'zh-hk' | 'ja' | 'en' {
  if (language === 'zh_HK') return 'zh-hk';
  if (language === 'ja_JP') return 'ja';
  if (language === 'en_US') return 'en';
  return 'zh-cn';
}
