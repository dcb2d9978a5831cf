import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import i18n from '../lib/i18n';
import { makeStore } from '../store';
import { setNotice } from '../store/notice';
import LanguageMenu from './LanguageMenu';
import ThemeToggle from './ThemeToggle';
import NoticeButton from './NoticeButton';

beforeAll(async () => {
  await i18n.changeLanguage('zh_CN');
  await i18n.loadNamespaces('common');
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('header widgets', () => {
  it('the language menu switches language and stores appLanguage', async () => {
    render(
      <Provider store={makeStore()}>
        <LanguageMenu />
      </Provider>,
    );
    fireEvent.click(screen.getByTestId('language-menu'));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['简体中文', '繁體中文', 'English', '日本語']);
    await act(async () => {
      fireEvent.click(screen.getByRole('menuitem', { name: 'English' }));
    });
    expect(localStorage.getItem('appLanguage')).toBe('en_US');
    expect(i18n.language).toBe('en_US');
    await act(async () => {
      await i18n.changeLanguage('zh_CN');
    });
  });

  it('the theme toggle flips the store and stores theme', () => {
    const store = makeStore();
    render(
      <Provider store={store}>
        <ThemeToggle />
      </Provider>,
    );
    fireEvent.click(screen.getByTestId('theme-toggle'));
    expect(store.getState().customization.theme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    fireEvent.click(screen.getByTestId('theme-toggle'));
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('the notice button exists only with a notice, and opens it', () => {
    const store = makeStore();
    render(
      <Provider store={store}>
        <NoticeButton />
      </Provider>,
    );
    expect(screen.queryByTestId('notice-button')).toBeNull();
    act(() => {
      store.dispatch(setNotice('**hi**'));
    });
    fireEvent.click(screen.getByTestId('notice-button'));
    expect(store.getState().notice.open).toBe(true);
  });
});
