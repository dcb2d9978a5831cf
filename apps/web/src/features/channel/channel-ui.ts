import { CHANNEL_TYPE_BY_ID } from '@one-hub/contract';
import type { ChipColor } from '../../components/data';

/** Response-time chip (console-screens §3.3): untested grey, ≤1 s green, ≤3 s primary, ≤5 s secondary, else red. */
export function responseColor(ms: number, tested: boolean): ChipColor {
  if (!tested || ms <= 0) return 'default';
  if (ms <= 1000) return 'success';
  if (ms <= 3000) return 'primary';
  if (ms <= 5000) return 'secondary';
  return 'error';
}

/** DeepSeek (28) and SiliconFlow (45) report balances in yuan. */
export function formatBalance(type: number, balance: number): string {
  const sign = type === 28 || type === 45 ? '¥' : '$';
  return `${sign}${balance.toFixed(2)}`;
}

export function typeName(type: number): string | undefined {
  return CHANNEL_TYPE_BY_ID.get(type)?.name;
}

/** A fixed colour per provider type, so a type looks the same in every row. */
const TYPE_COLORS: ChipColor[] = ['primary', 'secondary', 'info', 'success', 'warning', 'orange'];
export function typeColor(type: number): ChipColor {
  return CHANNEL_TYPE_BY_ID.has(type) ? TYPE_COLORS[type % TYPE_COLORS.length] : 'error';
}

/** Group chips: comma list, sorted; empty means `default`. */
export function groupList(group: string): string[] {
  const list = group
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean)
    .sort();
  return list.length ? list : ['default'];
}
