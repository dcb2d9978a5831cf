import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import PlaygroundPage from './PlaygroundPage';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'playground']);
});
afterEach(cleanup);

describe('public playground, signed out', () => {
  it('keeps the sign-in card off the top bar (spacing above it)', () => {
    renderWithProviders(<PlaygroundPage />);
    const card = screen.getByTestId('playground-empty');
    expect(parseFloat(getComputedStyle(card.parentElement!).paddingTop)).toBeGreaterThan(0);
  });
});
