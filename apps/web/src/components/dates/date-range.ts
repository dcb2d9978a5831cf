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

/** A preset as epoch seconds: from the first day's midnight to the last second of today (local). */
export function presetSeconds(preset: Preset, now = new Date()): [number, number] {
  const [from, to] = presetRange(preset, now);
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = to.split('-').map(Number);
  return [Math.floor(new Date(fy, fm - 1, fd).getTime() / 1000), Math.floor(new Date(ty, tm - 1, td + 1).getTime() / 1000) - 1];
}
