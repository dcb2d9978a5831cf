import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FakeOpenAI } from '../../server/test/fakes/openai-upstream';
import { chromiumAvailable, noSidewaysScroll, ROOT_PASSWORD, SHOTS, signIn, startConsole, toasts, type Console } from './browser';
import { shootThemes as shoot } from './shoot';

describe.skipIf(!chromiumAvailable)('tokens, channels, prices and available models in Chromium', () => {
  let c: Console;
  const upstream = new FakeOpenAI();
  beforeAll(async () => {
    await upstream.start();
    c = await startConsole();
  });
  afterAll(async () => {
    expect(c?.errors ?? []).toEqual([]);
    await c?.close();
    await upstream.close();
  });

  it('creates a token, copies its key with the sk- prefix, and refuses a bad heartbeat', async () => {
    const page = await c.open({ lang: 'en_US' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.base });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/token');
    await page.getByTestId('table-empty').waitFor();
    await page.getByTestId('token-create').click();
    const dialog = page.getByTestId('token-dialog');
    await dialog.getByLabel('Name').fill('e2e bot');
    await dialog.getByLabel('Heartbeat', { exact: true }).check();
    await dialog.getByLabel('Heartbeat timeout (seconds)').fill('10');
    await page.getByTestId('token-submit').click();
    await dialog.getByText('The timeout must be between 30 and 90 seconds').waitFor();
    await dialog.getByLabel('Heartbeat timeout (seconds)').fill('45');
    await page.getByTestId('token-submit').click();
    // the new key is shown once, with a copy button
    expect(await page.getByTestId('new-key').innerText()).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    await page.screenshot({ path: `${SHOTS}/token-new-key-desktop-light.png` });
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByTestId('table-row').filter({ hasText: 'e2e bot' });
    await row.waitFor();

    const listed = await c.root.get('/api/token/?page=1&size=10');
    const token = listed.body.data.data.find((t: { name: string }) => t.name === 'e2e bot');
    expect(token.setting.heartbeat).toEqual({ enabled: true, timeout_seconds: 45 });
    await row.getByTestId('token-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`sk-${token.key}`);
    await expect.poll(() => toasts(page)).toContain('Copied token key!');

    await row.getByTestId('token-copy-menu').click();
    await page.getByRole('menuitem', { name: 'ChatGPT Next' }).click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toContain(`"key":"sk-${token.key}"`);
    expect(link).not.toContain('sk-sk-');

    await row.getByRole('switch', { name: 'Status' }).click();
    await expect.poll(async () => (await c.root.get(`/api/token/${token.id}`)).body.data.status).toBe(2);
    await shoot(page, 'token', () => page.getByTestId('table-row').first().waitFor());

    // admin search by token id: owner column, Copy and ⋯ only
    await page.getByTestId('token-admin-toggle').click();
    await page.getByLabel('Token ID').fill(String(token.id));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const adminRow = page.getByTestId('table-row').filter({ hasText: `${token.user_id} - root` });
    await adminRow.waitFor();
    expect(await adminRow.getByTestId('token-chat').count()).toBe(0);
    await adminRow.getByTestId('token-more').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const adminDialog = page.getByTestId('token-dialog');
    await adminDialog.getByText('You are editing another user').waitFor();
    await adminDialog.getByLabel('Name').fill('e2e bot renamed');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/token-dialog-admin-desktop-light.png` });
    await page.getByTestId('token-submit').click();
    await expect.poll(async () => (await c.root.get(`/api/token/${token.id}`)).body.data.name).toBe('e2e bot renamed');
  });

  it('creates a channel against a fake upstream and tests it, showing the seconds', async () => {
    const page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/channel');
    await page.getByTestId('channel-create').click();
    const dialog = page.getByTestId('channel-dialog');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Custom', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('fake upstream');
    await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByTestId('channel-models-input').fill('gpt-4o');
    await page.getByTestId('channel-models-input').press('Enter');
    await dialog.getByRole('textbox', { name: 'Key' }).fill('sk-upstream');
    await dialog.getByRole('textbox', { name: 'Test model' }).fill('gpt-4o');
    await dialog.getByRole('button', { name: 'Edit as JSON' }).first().click();
    await dialog.getByRole('textbox', { name: 'Model mapping' }).fill('{"broken"');
    await dialog.getByText('Must be valid JSON').waitFor();
    await dialog.getByRole('textbox', { name: 'Model mapping' }).fill('');
    await page.getByTestId('channel-submit').click();
    await dialog.getByText('This field is required').waitFor(); // Custom needs a base URL
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill(`${upstream.url}/`);
    await page.getByTestId('channel-submit').click();
    await expect.poll(() => toasts(page)).toContain('Channel created');

    const row = page.getByTestId('table-row').filter({ hasText: 'fake upstream' });
    await row.getByText('Not tested').waitFor();
    await row.getByTestId('response-time').click();
    await expect.poll(async () => (await toasts(page)).find((t) => t.startsWith('Channel fake upstream: gpt-4o tested OK in'))).toMatch(/tested OK in \d+\.\d\d s$/);
    await row.getByTestId('response-time').getByText(/^\d+\.\d\d s$/).waitFor();
    const stored = (await c.root.get('/api/channel/?page=1&size=10')).body.data.data[0];
    expect(stored).toMatchObject({ name: 'fake upstream', type: 8, base_url: upstream.url, models: 'gpt-4o', test_model: 'gpt-4o' });

    // priority below zero is refused in the browser (§14.11)
    await row.getByRole('spinbutton', { name: 'Priority' }).fill('-3');
    await row.getByRole('button', { name: 'Save Priority' }).click();
    await row.getByText('Priority must be at least 0').waitFor(); // at the field, not as a toast
    expect((await c.root.get(`/api/channel/${stored.id}`)).body.data.priority).toBe(0);

    // the model check streams its probes into a report per model
    await row.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Check models' }).click();
    const check = page.getByTestId('channel-check');
    await check.getByLabel('gpt-4o').check();
    await page.getByTestId('check-start').click();
    const report = check.getByTestId('check-report');
    await report.waitFor({ timeout: 45_000 });
    await report.getByText('Basic chat').waitFor();
    expect(await report.getByText(/^(passed|failed|unknown)$/).count()).toBe(5);
    await page.screenshot({ path: `${SHOTS}/channel-check-desktop-light.png` });
    await check.getByRole('button', { name: 'Close' }).click();

    await row.getByRole('button', { name: 'Expand' }).click();
    await page.getByTestId('channel-detail').waitFor();
    await shoot(page, 'channel', () => page.getByTestId('table-row').first().waitFor());
    await page.getByTestId('channel-create').click();
    await page.getByTestId('channel-dialog').waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/channel-dialog-desktop-light.png` });
    await page.keyboard.press('Escape');

    // editing opens without the key and without a reveal; "Show key" reveals it, audited once
    const reveals = () => c.server.ctx.db.selectFrom('audit_logs').select('id').where('action', '=', 'reveal_key').where('target_id', '=', String(stored.id)).execute();
    await row.getByTestId('channel-edit').click();
    const edit = page.getByTestId('channel-dialog');
    await edit.getByRole('textbox', { name: 'Name' }).waitFor();
    expect(await page.getByTestId('channel-key').inputValue()).toBe('');
    expect(await reveals()).toHaveLength(0);
    await page.screenshot({ path: `${SHOTS}/channel-edit-masked-desktop-light.png` });
    await page.getByTestId('channel-key-reveal').click();
    await expect.poll(() => page.getByTestId('channel-key').inputValue()).toBe('sk-upstream');
    expect(await reveals()).toHaveLength(1);
    await page.screenshot({ path: `${SHOTS}/channel-edit-key-desktop-light.png` });
    await page.keyboard.press('Escape');
  });

  it('shows tagged channels as one tag row with a sub-table, and disables the whole tag', async () => {
    const made = await c.root.post('/api/channel/', { type: 8, name: 'tagged', key: 'sk-a\nsk-b', base_url: upstream.url, models: 'gpt-4o', group: 'default', tag: 'team-e2e', test_model: 'gpt-4o' });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    const page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/channel');
    const tagRow = page.getByTestId('table-row').filter({ hasText: 'team-e2e' });
    await tagRow.waitFor();
    await tagRow.getByRole('button', { name: 'Expand' }).click();
    const sub = page.getByTestId('tag-sub-table');
    await sub.getByText('Channels of team-e2e (2)').waitFor();
    await sub.getByText(/ - tagged_2$/).waitFor();
    await tagRow.getByRole('button', { name: 'Disable all in tag' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(async () => (await c.root.get('/api/channel_tag/team-e2e/list')).body.data.map((ch: { status: number }) => ch.status))
      .toEqual([2, 2]);
    await expect.poll(() => sub.getByText('Manual', { exact: true }).count()).toBe(2); // the open sub-table follows
    await page.screenshot({ path: `${SHOTS}/channel-tag-desktop-light.png` });
  });

  it('edits a price in the single tab and shows it converted', async () => {
    const page = await c.open({ lang: 'en_US' });
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/pricing');
    await page.getByTestId('price-search').fill('gpt-4o-mini');
    const row = page.getByTestId('table-row').filter({ has: page.getByText('gpt-4o-mini', { exact: true }) });
    await row.getByTestId('price-edit').click();
    const dialog = page.getByTestId('price-dialog');
    await dialog.getByRole('button', { name: 'USD' }).click();
    await dialog.getByRole('button', { name: 'M', exact: true }).click();
    await dialog.getByRole('spinbutton', { name: 'Input' }).fill('0.3');
    await dialog.getByRole('spinbutton', { name: 'Output' }).fill('1.2');
    await dialog.getByText('rate 0.15').waitFor();
    await page.getByTestId('price-submit').click();
    await expect.poll(() => toasts(page)).toContain('Saved');
    const stored = (await c.root.get('/api/prices')).body.data.find((p: { model: string }) => p.model === 'gpt-4o-mini');
    expect(stored).toMatchObject({ input: 0.15, output: 0.6 });
    await row.getByText('$0.0003 / 1K').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('group', { name: 'Unit' }).getByRole('button', { name: 'M', exact: true }).click();
    await row.getByText('$0.3 / 1M').waitFor();
    await page.getByTestId('price-search').fill('');
    await shoot(page, 'pricing', () => page.getByTestId('table-row').first().waitFor());
    await page.goto('/panel/pricing#multiple');
    await page.getByRole('tab', { name: 'Grouped', selected: true }).waitFor();
    await page.getByTestId('table-row').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/pricing-grouped-desktop-light.png` });
    await page.getByTestId('price-edit').first().click();
    await page.getByTestId('price-dialog').waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/pricing-batch-dialog-desktop-light.png` });
  });

  it('lists the channel models with group prices for users and visitors', async () => {
    const page = await c.open({ lang: 'en_US' });
    await page.goto('/price');
    const card = page.getByTestId('model-card').filter({ hasText: 'gpt-4o' }).first();
    await card.waitFor();
    await shoot(page, 'price-public', () => page.getByTestId('model-card').first().waitFor());
    await signIn(page, 'root', ROOT_PASSWORD);
    await page.goto('/panel/model_price');
    await page.getByTestId('model-search').fill('no-such-model');
    await page.getByTestId('model-empty').waitFor();
    await page.getByTestId('model-search').fill('');
    await page.getByTestId('model-card').first().getByRole('button', { name: 'View detail' }).click();
    await page.getByRole('dialog').getByText('Price = group ratio', { exact: false }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/model-price-detail-desktop-light.png` });
    await page.keyboard.press('Escape');
    await shoot(page, 'model-price', () => page.getByTestId('model-card').first().waitFor());
  });
});
