import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, renderHook, screen, within } from '@testing-library/react';
import type { AsyncTask } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import TaskDetail from './TaskDetail';
import TaskCost from './TaskCost';
import TaskProgress from './TaskProgress';
import { taskResult, taskVideos, videoUrls } from './task-data';
import TaskResultCell from './TaskResultCell';
import { useLiveReload } from './use-live-reload';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'task']);
});
afterEach(cleanup);

const kling = (over: Partial<AsyncTask>): AsyncTask => ({
  id: 1, created_at: 0, updated_at: 0, task_id: 'kl-1', platform: 'kling', user_id: 1, channel_id: 0, quota: 2000, action: 'text2video', status: 'SUCCESS',
  fail_reason: '', submit_time: 0, start_time: 0, finish_time: 0, progress: 100, properties: null, notify_hook: '', token_id: 0, plan_quota: 0,
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

  it('plays an OpenAI video job through the server once it is done, and nothing before', () => {
    const job = kling({ id: 7, platform: 'videos', action: 'generate', task_id: 'video_1', data: { id: 'video_1', object: 'video', status: 'completed' } });
    expect(taskVideos(job)).toEqual(['/api/task/7/content']);
    expect(taskVideos({ ...job, status: 'IN_PROGRESS' })).toEqual([]);
    renderWithProviders(<TaskDetail task={job} onClose={() => undefined} />);
    expect(screen.getByTestId('video-view').querySelector('video')?.getAttribute('src')).toBe('/api/task/7/content');
  });

  it('shows a result cell per kind: a song\'s cover, a film icon, nothing; a click opens the detail', () => {
    const song = kling({ id: 3, platform: 'suno', action: 'MUSIC', data: [{ id: 'c', audio_url: '/api/task/3/result/0', image_url: '/api/task/3/result/1' }] });
    expect(taskResult(song)).toEqual({ kind: 'audio', cover: '/api/task/3/result/1' });
    expect(taskResult({ ...song, data: [{ id: 'c', title: 'no audio yet' }] })).toEqual({ kind: 'none' });
    const opened = vi.fn();
    renderWithProviders(<TaskResultCell task={song} onOpen={opened} />);
    const cell = screen.getByRole('button', { name: 'Play the music' });
    expect(cell.querySelector('img')?.getAttribute('src')).toBe('/api/task/3/result/1');
    fireEvent.click(cell);
    expect(opened).toHaveBeenCalledTimes(1);
    cleanup();
    renderWithProviders(<TaskResultCell task={kling({})} onOpen={opened} />);
    expect(screen.getByRole('button', { name: 'Play the video' })).toBeTruthy();
    cleanup();
    renderWithProviders(<TaskResultCell task={kling({ status: 'FAILURE', data: { task_status: 'failed' } })} onOpen={opened} />);
    expect(screen.queryByRole('button')).toBeNull();
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
    cleanup();
    // Paid by a plan's window: its amount, marked, never called refunded.
    renderWithProviders(<TaskCost quota={0} planQuota={2500} failed />);
    expect(screen.getByText('Plan')).toBeTruthy();
    expect(screen.queryByText('Refunded')).toBeNull();
    expect(screen.queryByText('Not charged')).toBeNull();
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
