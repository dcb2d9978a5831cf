/** Pure choice of a chart's value axis, so no two ticks print the same label. */

const MANTISSAS = [1, 2, 5, 10];

/** The smallest 1/2/5×10^k at or above `x` (x > 0). */
export function niceCeil(x: number): number {
  const base = 10 ** Math.floor(Math.log10(x));
  return (MANTISSAS.find((m) => m * base >= x * (1 - 1e-9)) ?? 10) * base;
}

/** The 1/2/5×10^k step after `step`. */
const nextNice = (step: number) => niceCeil(step * 1.01);

/**
 * The axis top and tick count for values up to `max`, at most `wanted` ticks, with a nice step whose
 * formatted labels are all distinct (a count axis of 0–3 gets 0,1,2,3, never 0,1,1,2,2,3).
 */
export function valueAxis(max: number, format: (v: number) => string, wanted = 5): { max: number; tickAmount: number } {
  let step = niceCeil(max > 0 ? max / wanted : 1);
  for (let guard = 0; guard < 40; guard++) {
    const n = Math.max(1, Math.ceil(max / step - 1e-9));
    const labels = Array.from({ length: n + 1 }, (_, i) => format(i * step));
    if (new Set(labels).size === labels.length) return { max: n * step, tickAmount: n };
    step = nextNice(step);
  }
  return { max: Math.max(max, 1), tickAmount: 1 };
}

/** The highest per-day total of stacked series. */
export function stackedMax(series: Array<{ data: number[] }>): number {
  const days = Math.max(0, ...series.map((s) => s.data.length));
  let max = 0;
  for (let i = 0; i < days; i++) max = Math.max(max, series.reduce((a, s) => a + (s.data[i] ?? 0), 0));
  return max;
}
