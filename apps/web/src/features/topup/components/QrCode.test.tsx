import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { create } from 'qrcode';
import { renderWithProviders } from '../../../test-utils/providers';
import QrCode from './QrCode';

afterEach(cleanup);

describe('QR code', () => {
  it('draws one dot per dark module outside the three finder squares, where the encoder put it', () => {
    const value = 'https://qr.alipay.com/bax03431ljhokirwl38f00a7';
    renderWithProviders(<QrCode value={value} />);
    const svg = screen.getByTestId('pay-qrcode');
    const modules = create(value, { errorCorrectionLevel: 'M' }).modules;
    const n = modules.size;
    const finder = (r: number, c: number) => (r < 7 && c < 7) || (r < 7 && c >= n - 7) || (r >= n - 7 && c < 7);
    const expected = new Set<string>();
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (modules.get(r, c) && !finder(r, c)) expected.add(`${r},${c}`);
    const drawn = new Set([...svg.querySelectorAll('circle')].map((d) => `${Number(d.getAttribute('cy')) - 0.5},${Number(d.getAttribute('cx')) - 0.5}`));
    expect(drawn).toEqual(expected);
    // The finders: an outer ring and a centre square each, at the three corners.
    expect(svg.querySelectorAll('rect')).toHaveLength(6);
    expect(svg.getAttribute('viewBox')).toBe(`-1 -1 ${n + 2} ${n + 2}`);
  });
});
