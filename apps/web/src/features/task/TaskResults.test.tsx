import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, screen, within } from '@testing-library/react';
import type { AsyncTask } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import TaskDetail from './TaskDetail';
import TaskCost from './TaskCost';
import TaskProgress from './TaskProgress';
import { videoUrls } from './task-data';
import { useLiveReload } from './use-live-reload';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'task']);
});
afterEach(cleanup);

const kling = (over: Partial<AsyncTask>): AsyncTask => ({
  id: 1, created_at: 0, updated_at: 0, task_id: 'kl-1', platform: 'kling', user_id: 1, channel_id: 0, quota: 2000, action: 'text2video', status: 'SUCCESS',
  fail_reason: '', submit_time: 0, start_time: 0, finish_time: 0, progress: 100, properties: null, notify_hook: '', token_id: 0,
  data: { task_status: 'succeed', task_result: { videos: [{ id: 'v', url: 'https://cdn/v.mp4', duration: '5' }] } },
  ...over,
});

describe('task results, cost and progress', () => {
  it('plays a Kling video and shows why a task failed', () => {
    expect(videoUrls(kling({}).data)).toEqual(['https://cdn/v.mp4']);
    expect(videoUrls({ task_result: { videos: 'x' } })).toEqual([]);
    renderWithProviders(<TaskDetail task={kling({})} onClose={() => undefined} />);
    expect(screen.getByTestId('video-view').querySelector('video')?.getAttribute('src')).toBe('https://cdn/v.mp4');
    cleanup();
    renderWithProviders(<TaskDetail task={kling({ status: 'FAILURE', fail_reason: 'risk control', data: { task_status: 'failed' } })} onClose={() => undefined} />);
    expect(within(screen.getByTestId('task-detail')).getByText('risk control')).toBeTruthy();
  });

  it('marks a failed task that had cost something as refunded, and an uncharged one as such', () => {
    renderWithProviders(<TaskCost quota={2000} failed />);
    expect(screen.getByText('Refunded')).toBeTruthy();
    cleanup();
    renderWithProviders(<TaskCost quota={0} failed />);
    expect(screen.getByText('Not charged')).toBeTruthy();
    cleanup();
    renderWithProviders(<TaskCost quota={2000} failed={false} />);
    expect(screen.queryByText('Refunded')).toBeNull();
  });

  it('draws progress clamped to 0–100', () => {
    renderWithProviders(<TaskProgress percent={140} />);
    expect(screen.getByTestId('task-progress').textContent).toBe('100%');
  });

  it('reloads while something runs and stops when nothing does', () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    const { rerender, unmount } = renderHook(({ running }) => useLiveReload(reload, running), { initialProps: { running: true } });
    act(() => vi.advanceTimersByTime(10_000));
    expect(reload).toHaveBeenCalledTimes(2);
    rerender({ running: false });
    act(() => vi.advanceTimersByTime(10_000));
    expect(reload).toHaveBeenCalledTimes(2);
    unmount();
    vi.useRealTimers();
  });
});
