import { beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { LogEntry } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import { QuotaCell } from './components/QuotaCell';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'log']);
});

describe('log quota cell', () => {
  it('shows a top-up with two decimals, not six', () => {
    renderWithProviders(<QuotaCell log={{ type: 1, quota: 5_000_000 } as LogEntry} />);
    expect(screen.getByText('$10.00')).toBeTruthy();
  });
});
