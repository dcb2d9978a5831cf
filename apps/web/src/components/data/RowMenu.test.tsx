import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { RowMenu } from './RowMenu';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces('common');
});
afterEach(cleanup);

describe('RowMenu', () => {
  it('lists visible items, keeps disabled ones inert and runs the chosen action once', () => {
    const edit = vi.fn();
    const remove = vi.fn();
    const hidden = vi.fn();
    render(
      <RowMenu
        items={[
          { label: 'Edit', onClick: edit, disabled: true },
          { label: 'Promote', onClick: hidden, hidden: true },
          { label: 'Delete', onClick: remove, danger: true },
        ]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Edit', 'Delete']);
    expect(screen.getByRole('menuitem', { name: 'Edit' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(remove).toHaveBeenCalledTimes(1);
    expect(edit).not.toHaveBeenCalled();
    expect(hidden).not.toHaveBeenCalled();
  });
});
