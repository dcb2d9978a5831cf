import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../lib/i18n';
import { fakeApi, renderWithProviders } from '../../test-utils/providers';
import RedemptionDialog from './RedemptionDialog';
import { codesFile } from './download-codes';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'redemption']);
});
let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  cleanup();
  api?.restore();
  vi.restoreAllMocks();
});

const posts = () => api!.calls.filter((c) => c.method === 'POST');
const field = (label: RegExp) => screen.getByLabelText(label);

describe('redemption dialog', { timeout: 20_000 }, () => {
  it('requires a name and at least one code, and sends nothing until both are right', async () => {
    api = fakeApi();
    renderWithProviders(<RedemptionDialog open onClose={() => undefined} onSaved={() => undefined} />);
    fireEvent.change(field(/How many/), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('redemption-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(screen.getByText('Must be at least 1')).toBeTruthy();
    fireEvent.change(field(/Quota/), { target: { value: '-1' } });
    fireEvent.change(field(/Name/), { target: { value: 'promo' } });
    fireEvent.change(field(/How many/), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('redemption-submit'));
    await waitFor(() => expect(screen.queryByText('This field is required')).toBeNull());
    expect(screen.getByText('Must be at least 0')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('creates several codes and downloads them as {name}.txt, one per line', async () => {
    api = fakeApi((method) => (method === 'POST' ? ['k1', 'k2', 'k3'] : null));
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (blobs.push(b as Blob), 'blob:x'));
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const saved = vi.fn();
    renderWithProviders(<RedemptionDialog open onClose={() => undefined} onSaved={saved} />);
    fireEvent.change(field(/Name/), { target: { value: 'promo' } });
    fireEvent.change(field(/How many/), { target: { value: '3' } });
    await act(async () => fireEvent.click(screen.getByTestId('redemption-submit')));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(posts()[0].body).toEqual({ name: 'promo', quota: 100000, count: 3 });
    expect(clicks).toEqual(['promo.txt']);
    expect(await blobs[0].text()).toBe('k1\nk2\nk3\n');
  });

  it('shows the server message when the server refuses', async () => {
    api = fakeApi((method) => {
      if (method === 'POST') throw new Error('兑换码名称长度必须在1-20之间');
      return null;
    });
    renderWithProviders(<RedemptionDialog open onClose={() => undefined} onSaved={() => undefined} />);
    fireEvent.change(field(/Name/), { target: { value: 'a very long name indeed' } });
    await act(async () => fireEvent.click(screen.getByTestId('redemption-submit')));
    expect((await screen.findAllByText(/兑换码名称长度必须在1-20之间/)).length).toBeGreaterThan(0);
  });

  it('names the file safely', () => {
    expect(codesFile('a/b:c', ['x'])).toEqual({ fileName: 'a_b_c.txt', text: 'x\n' });
    expect(codesFile('  ', ['x']).fileName).toBe('redemption.txt');
  });
});
