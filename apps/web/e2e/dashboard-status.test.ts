import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUptimeKuma } from '../../server/test/fakes/uptime-kuma';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, type Console } from './browser';

const PAGE = { config: { slug: 'main' }, publicGroupList: [{ name: 'Gateways', monitorList: [{ id: 7, name: 'relay-eu' }, { id: 8, name: 'relay-us' }] }] };
const beat = (status: number, minute: number) => ({ status, time: `2026-01-01 10:${String(minute).padStart(2, '0')}:00`, msg: '', ping: status ? 30 + minute : null });
const HEARTBEAT = {
  heartbeatList: { '7': [beat(1, 0), beat(0, 1), beat(1, 2)], '8': [beat(0, 0), beat(0, 1)] },
  uptimeList: { '7_24': 0.9512, '8_24': 0.5 },
};

describe.skipIf(!chromiumAvailable)('dashboard status tab in Chromium', () => {
  let c: Console;
  const kuma = new FakeUptimeKuma();
  beforeAll(async () => {
    await kuma.start();
    kuma.pages.set('main', { page: PAGE, heartbeat: HEARTBEAT });
    c = await startConsole({ UPTIME_KUMA_ENABLE: 'true', UPTIME_KUMA_DOMAIN: kuma.url, UPTIME_KUMA_STATUS_PAGE_NAME: 'main' });
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await kuma.close();
  });

  it('switches to the monitors with availability colours and history', async () => {
    const page = await c.open();
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.getByTestId('status-tab').click();
    const eu = page.getByTestId('monitor-7');
    await eu.waitFor();
    expect(await eu.innerText()).toMatch(/relay-eu[\s\S]*95\.12%[\s\S]*Gateways · 2026-01-01 10:02:00 · 32 ms/);
    expect(await eu.locator('.MuiChip-colorSuccess').count()).toBe(1);
    expect(await page.getByTestId('monitor-8').locator('.MuiChip-colorError').innerText()).toBe('50%');
    await page.screenshot({ path: `${SHOTS}/dashboard-status-desktop-light.png` });
    const phone = await c.open({ width: 375, height: 780 });
    await signIn(phone, 'root', ROOT_PASSWORD);
    await phone.getByTestId('status-tab').click();
    await phone.getByTestId('monitor-8').waitFor();
    await noSidewaysScroll(phone);
  });
});
