import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { AvailableModel, UserGroup } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import { buildCatalog } from './catalog';
import ModelCard from './ModelCard';
import ModelDetailDialog from './ModelDetailDialog';

const tiered: AvailableModel = {
  owned_by: 'Google',
  groups: ['default'],
  price: {
    model: 'long-pro',
    type: 'tokens',
    channel_type: 24,
    input: 1.25,
    output: 5,
    locked: false,
    extra_ratios: { cached_tokens: 0.25 },
    tiers: [
      { above: 200000, input: 2.5, output: 10, extra_ratios: { cached_tokens: 0.1, cached_write_tokens: 1.25 } },
      { above: 500000, input: 5, output: 20 },
    ],
  },
};
const [model] = buildCatalog({ 'long-pro': tiered }, []);
const group: UserGroup = { id: 1, symbol: 'default', name: 'Default', ratio: 1, api_rate: 0, public: true, promotion: false, min: 0, max: 0, enable: true };

beforeAll(async () => {
  await i18n.loadNamespaces(['common', 'model-price']);
});
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en_US');
});

describe('model card price tiers', { timeout: 20_000 }, () => {
  it("shows the base price's and each tier's usage-class ratios, a class a tier leaves out following the base", async () => {
    await i18n.changeLanguage('en_US');
    renderWithProviders(<ModelCard model={model} group="default" ratio={1} unit="K" onDetail={() => {}} />);
    expect(screen.getByTestId('card-ratios').textContent).toBe('Cached ×0.25');
    expect(screen.getAllByTestId('card-tier-ratios').map((e) => e.textContent)).toEqual(['Cached ×0.1, Cache write ×1.25', 'Cached ×0.25']);
    expect(screen.getAllByTestId('card-tier')[0].textContent).toContain('Prompt > 200,000 tokens');
  });

  it('words the ratios as the detail dialog does, in each locale', async () => {
    for (const [lang, cached] of [['zh_CN', '缓存'], ['zh_HK', '快取'], ['ja_JP', 'キャッシュ'], ['en_US', 'Cached']] as const) {
      await i18n.changeLanguage(lang);
      renderWithProviders(
        <>
          <ModelCard model={model} group="default" ratio={1} unit="K" onDetail={() => {}} />
          <ModelDetailDialog model={model} groups={[group]} unit="K" onClose={() => {}} />
        </>,
      );
      const card = screen.getAllByTestId('card-tier-ratios').map((e) => e.textContent);
      expect(card[1]).toBe(`${cached} ×0.25`);
      const dialog = await screen.findByRole('dialog');
      const rows = within(dialog).getAllByTestId('detail-tier');
      rows.forEach((row, i) => expect(row.textContent).toContain(card[i]));
      expect(rows[0].textContent).toContain('> 200,000 ');
      cleanup();
    }
  });
});
