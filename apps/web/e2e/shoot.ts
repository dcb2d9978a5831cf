import type { Page } from 'playwright-core';
import { noSidewaysScroll, SHOTS } from './browser';

/**
 * Screenshots of the page as it is, in light and dark, at the small laptop (1366×768, full page) and
 * phone width, with no sideways page scroll at either; `ready` waits for its content.
 */
export async function shootThemes(page: Page, name: string, ready: () => Promise<unknown>) {
  const before = page.viewportSize() ?? { width: 1366, height: 860 };
  // A tab behind another gets no animation frames: the waits below would hold the test to its timeout.
  await page.bringToFront();
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((th) => localStorage.setItem('theme', th), theme);
    for (const [w, h, kind] of [[1366, 768, 'desktop'], [390, 844, 'phone']] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.reload();
      await ready();
      await transitionsEnded(page);
      await page.waitForTimeout(400);
      await noSidewaysScroll(page);
      await page.screenshot({ path: `${SHOTS}/${name}-${kind}-${theme}.png`, fullPage: kind === 'desktop' });
    }
  }
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  // back to the size the test had, light
  await page.setViewportSize(before);
}

/**
 * Waits for the finite animations and transitions running now (a drawer sliding in after the resize,
 * a filter bar unfolding; spinners never end and are left out), then for the charts' shapes to stop
 * changing from one frame to the next (ApexCharts grows its bars in script): a shot taken during
 * them catches the layout half-way. Bounded by 8 s in all: a paused animation never finishes, and a
 * shot a little early is better than a test held to its timeout.
 */
async function transitionsEnded(page: Page) {
  await page.evaluate(async () => {
    const settled = (async () => {
      await Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
          .map((a) => a.finished.catch(() => undefined)),
      );
      const shapes = () => [...document.querySelectorAll('.apexcharts-series path, .apexcharts-pie path')].map((p) => p.getAttribute('d')).join('|');
      const frames = (n: number) => new Promise<void>((resolve) => (n <= 0 ? resolve() : requestAnimationFrame(() => void frames(n - 1).then(resolve))));
      // (bounded: a chart redrawn on every frame would not hold the shot forever)
      for (let i = 0, last = shapes(); i < 60; i++) {
        await frames(6);
        const now = shapes();
        if (now === last) break;
        last = now;
      }
    })();
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 8_000))]);
  });
}
