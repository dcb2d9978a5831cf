import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { InlineNumber } from './channel-cells';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('notistack', () => ({ enqueueSnackbar: (m: string) => toasts.push(m) }));

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'channel']);
});
afterEach(() => {
  cleanup();
  toasts.length = 0;
});

describe('inline priority / weight field', { timeout: 30_000 }, () => {
  it('names the bound at the field, not in a toast per attempt, and saves a valid change', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<InlineNumber value={12} min={1} label="Weight" onSave={onSave} />);
    const input = screen.getByRole('spinbutton', { name: 'Weight' });
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: /Weight/ }));
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByText('Weight must be at least 1')).toBeTruthy();
    expect(toasts).toEqual([]);
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '15' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSave).toHaveBeenCalledWith(15);
  });
});
