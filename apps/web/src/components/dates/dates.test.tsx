import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../lib/i18n';
import DateRangeField from './DateRangeField';
import DateTimeField from './DateTimeField';
import DateTimeRangeField from './DateTimeRangeField';
import { dayjsLocale, presetRange, presetSeconds } from './date-range';

beforeAll(async () => {
  await i18n.loadNamespaces('common');
});
afterEach(cleanup);

describe('date ranges', () => {
  it('computes today, the last 7 days and this month in local days', () => {
    const now = new Date(2024, 2, 15, 10, 0, 0);
    expect(presetRange('today', now)).toEqual(['2024-03-15', '2024-03-15']);
    expect(presetRange('week', now)).toEqual(['2024-03-09', '2024-03-15']);
    expect(presetRange('month', now)).toEqual(['2024-03-01', '2024-03-15']);
    expect(presetRange('week', new Date(2024, 0, 3))).toEqual(['2023-12-28', '2024-01-03']);
  });

  it('maps console languages to dayjs locales', () => {
    expect(['zh_CN', 'zh_HK', 'en_US', 'ja_JP', 'fr'].map(dayjsLocale)).toEqual(['zh-cn', 'zh-hk', 'en', 'ja', 'zh-cn']);
  });

  it('shows the pickers with the value and a day-format placeholder, and presets that fill both days', async () => {
    await i18n.changeLanguage('zh_CN');
    const onChange = vi.fn();
    render(<DateRangeField start="2024-03-01" end="2024-03-07" onChange={onChange} startLabel="开始" endLabel="结束" />);
    expect(screen.getByTestId('range-start').textContent).toContain('2024');
    expect(screen.getByTestId('range-start').textContent).not.toMatch(/mm\/dd\/yyyy/i);
    fireEvent.click(screen.getByText('近 7 天'));
    expect(onChange).toHaveBeenLastCalledWith(...presetRange('week'));
    fireEvent.click(screen.getByText('本月'));
    expect(onChange).toHaveBeenLastCalledWith(...presetRange('month'));
    await i18n.changeLanguage('en_US');
    cleanup();
    render(<DateRangeField start="" end="" onChange={onChange} startLabel="Start" endLabel="End" />);
    expect(screen.getByText('Today')).toBeTruthy();
    expect(screen.getByTestId('range-start').textContent).toMatch(/YYYY-MM-DD/);
  }, 30_000);

  it('turns presets into epoch seconds from the first midnight to the last second of today', () => {
    const now = new Date(2024, 2, 15, 10, 0, 0);
    expect(presetSeconds('today', now)).toEqual([new Date(2024, 2, 15).getTime() / 1000, new Date(2024, 2, 16).getTime() / 1000 - 1]);
    expect(presetSeconds('month', now)[0]).toBe(new Date(2024, 2, 1).getTime() / 1000);
  });

  it('shows date-and-time pickers with the value in the page language, presets and a clear button', async () => {
    await i18n.changeLanguage('ja_JP');
    const onChange = vi.fn();
    const at = new Date(2024, 2, 1, 8, 30).getTime() / 1000;
    render(<DateTimeRangeField start={at} end={0} onChange={onChange} startLabel="開始" endLabel="終了" testId="t" />);
    expect(screen.getByTestId('t-start').textContent).toContain('2024');
    expect(screen.getByTestId('t-start').textContent).toContain('08');
    expect(screen.getByTestId('t-end').textContent).not.toMatch(/mm\/dd\/yyyy/i);
    fireEvent.click(screen.getByText('今日'));
    expect(onChange).toHaveBeenLastCalledWith(...presetSeconds('today'));
    cleanup();
    await i18n.changeLanguage('en_US');
    const one = vi.fn();
    render(<DateTimeField value={at} onChange={one} label="Before" testId="one" />);
    const clear = screen.getByTestId('one').querySelector('button[aria-label="Clear"]') ?? screen.getByRole('button', { name: /clear/i });
    fireEvent.click(clear);
    expect(one).toHaveBeenLastCalledWith(0);
  }, 30_000);
});
