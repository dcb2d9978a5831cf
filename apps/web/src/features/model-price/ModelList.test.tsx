import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { AvailableModel, UserGroup } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import ModelPricePage from './ModelPricePage';

const price = { type: 'tokens' as const, channel_type: 24, locked: false };
const models: Record<string, AvailableModel> = {
  'long-pro': {
    owned_by: 'Google',
    groups: ['default', 'vip'],
    price: {
      ...price,
      model: 'long-pro',
      input: 1.25,
      output: 5,
      extra_ratios: { cached_tokens: 0.25 },
      tiers: [
        { above: 200000, input: 2.5, output: 10, extra_ratios: { cached_tokens: 0.1 } },
        { above: 500000, input: 5, output: 20 },
      ],
    },
  },
  'flat-mini': { owned_by: 'OpenAI', groups: ['default'], price: { ...price, model: 'flat-mini', input: 1, output: 2 } },
  // Tiered, but the vip group may not use it: no price, so no tiers either.
  'default-only': { owned_by: 'OpenAI', groups: ['default'], price: { ...price, model: 'default-only', input: 1, output: 2, tiers: [{ above: 100000, input: 2, output: 4 }] } },
};
const group = (symbol: string, name: string, ratio: number): UserGroup => ({ id: ratio, symbol, name, ratio, api_rate: 0, public: true, promotion: false, min: 0, max: 0, enable: true });
const groups = { default: group('default', 'Default', 1), vip: group('vip', 'VIP', 2) };

let api: ReturnType<typeof fakeApi> | undefined;
beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'model-price']);
});
afterEach(async () => {
  cleanup();
  api?.restore();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en_US');
});

function openList() {
  api = fakeApi((_m, url) => (url.includes('/api/available_model') ? models : url.includes('/api/user_group_map') ? groups : []));
  renderWithProviders(<ModelPricePage />);
  fireEvent.click(screen.getByRole('button', { name: i18n.t('model-price:listView') }));
}
const row = async (id: string) => (await screen.findByText(id)).closest('[data-testid="table-row"]') as HTMLElement;

describe('model list price tiers', { timeout: 20_000 }, () => {
  it('marks a tiered price in the list and opens its tiers under the chosen group, the way the cards word them', async () => {
    openList();
    const tiered = within(await row('long-pro'));
    expect(within(await row('flat-mini')).queryByTestId('list-tier-badge')).toBeNull();
    fireEvent.click(tiered.getByTestId('list-tier-badge'));
    const popover = within(await screen.findByTestId('list-tier-popover'));
    expect(popover.getByText('Long-context tiers: input / output')).toBeTruthy();
    expect(popover.getByTestId('list-tier-base').textContent).toBe('Prompt ≤ 200,000 tokens$0.0025 / 1K / $0.01 / 1KCached ×0.25');
    expect(popover.getAllByTestId('list-tier').map((e) => e.textContent)).toEqual([
      'Prompt > 200,000 tokens$0.005 / 1K / $0.02 / 1KCached ×0.1',
      'Prompt > 500,000 tokens$0.01 / 1K / $0.04 / 1KCached ×0.25',
    ]);
    fireEvent.keyDown(screen.getByTestId('list-tier-popover'), { key: 'Escape' });

    // Another group: its ratio applies, and a model it cannot use shows neither price nor tiers.
    fireEvent.click(screen.getByText('VIP'));
    expect(within(await row('default-only')).getAllByText('No group access')).toHaveLength(2);
    expect(within(await row('default-only')).queryByTestId('list-tier-badge')).toBeNull();
    fireEvent.click(within(await row('long-pro')).getByTestId('list-tier-badge'));
    const vip = await screen.findAllByTestId('list-tier-popover');
    expect(within(vip[vip.length - 1]).getAllByTestId('list-tier')[0].textContent).toContain('$0.01 / 1K / $0.04 / 1K');
  });

  it('shows the mark on the phone cards too, in each language', async () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('max-width'), media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }));
    for (const [lang, label, above] of [['zh_CN', '分档', '提示 > 200,000 tokens'], ['zh_HK', '分檔', '提示詞 > 200,000 個 token'], ['ja_JP', '価格帯', 'プロンプト > 200,000 トークン'], ['en_US', 'Tiered', 'Prompt > 200,000 tokens']] as const) {
      await i18n.changeLanguage(lang);
      openList();
      expect((await screen.findByTestId('data-table')).dataset.layout).toBe('cards');
      const badge = within(await row('long-pro')).getByTestId('list-tier-badge');
      expect(badge.textContent).toBe(label);
      fireEvent.click(badge);
      expect((await screen.findAllByTestId('list-tier'))[0].textContent).toContain(above);
      cleanup();
      api?.restore();
    }
  });
});
