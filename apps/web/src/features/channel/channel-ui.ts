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

/** Provider consoles the ⋮ menu can open (types without one have no menu entry). */
const PROVIDER_CONSOLES: Record<number, string> = {
  1: 'https://platform.openai.com/usage',
  3: 'https://portal.azure.com',
  14: 'https://console.anthropic.com',
  16: 'https://open.bigmodel.cn',
  17: 'https://dashscope.console.aliyun.com',
  20: 'https://openrouter.ai/settings/credits',
  25: 'https://aistudio.google.com',
  28: 'https://platform.deepseek.com',
  29: 'https://platform.moonshot.cn',
  30: 'https://console.mistral.ai',
  31: 'https://console.groq.com',
  36: 'https://dashboard.cohere.com',
  45: 'https://cloud.siliconflow.cn',
  47: 'https://jina.ai',
  56: 'https://console.x.ai',
};
export function providerConsole(type: number): string | undefined {
  return PROVIDER_CONSOLES[type];
}
