import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { AsyncTask } from '@one-hub/contract';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test-utils/providers';
import TaskDetail from './TaskDetail';
import { hasDetail, sunoClips, taskStatusColor } from './task-data';
import { actionColor, durationSeconds, statusColor, SUBMIT_CODES } from '../midjourney/mj-data';

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
  await i18n.loadNamespaces(['common', 'task']);
});
afterEach(cleanup);

const task = (over: Partial<AsyncTask>): AsyncTask => ({
  id: 1, created_at: 0, updated_at: 0, task_id: 't1', platform: 'kling', user_id: 1, channel_id: 0, quota: 0, action: 'text2video', status: 'SUCCESS',
  fail_reason: '', submit_time: 0, start_time: 0, finish_time: 0, progress: 100, properties: null, data: null, notify_hook: '', token_id: 0, plan_quota: 0, ...over,
});
const songs = [
  { id: 'a', title: 'First', audio_url: 'https://cdn/a.mp3', video_url: 'https://cdn/a.mp4', metadata: { prompt: 'la la la', tags: 'pop' } },
  { id: 'b', title: 'Second', audio_url: 'https://cdn/b.mp3', metadata: { prompt: 'na na' } },
];

describe('task detail dialog', () => {
  it('says there is no data', () => {
    renderWithProviders(<TaskDetail task={task({ data: null })} onClose={() => undefined} />);
    expect(within(screen.getByTestId('task-detail')).getByText('No data')).toBeTruthy();
  });
  it('shows other tasks as JSON', () => {
    renderWithProviders(<TaskDetail task={task({ data: { task_status: 'succeed', videos: [{ url: 'https://v' }] } })} onClose={() => undefined} />);
    expect(screen.getByTestId('task-json').textContent).toContain('"task_status": "succeed"');
  });
  it('shows Suno music as clips with an audio player, switching clip on click', () => {
    renderWithProviders(<TaskDetail task={task({ platform: 'suno', action: 'MUSIC', data: songs })} onClose={() => undefined} />);
    const view = screen.getByTestId('suno-view');
    expect(view.querySelector('audio')?.getAttribute('src')).toBe('https://cdn/a.mp3');
    fireEvent.click(within(view).getByText('Second'));
    expect(view.querySelector('audio')?.getAttribute('src')).toBe('https://cdn/b.mp3');
  });
});

describe('task and Midjourney cell rules', () => {
  it('reads Suno clips from an array or a clips object', () => {
    expect(sunoClips(songs).map((c) => [c.title, c.prompt, c.tags])).toEqual([['First', 'la la la', 'pop'], ['Second', 'na na', '']]);
    expect(sunoClips({ clips: songs })).toHaveLength(2);
    expect(sunoClips('nope')).toEqual([]);
    expect([null, {}, [], ''].map(hasDetail)).toEqual([false, false, false, false]);
  });
  it('colours chips as the spec says', () => {
    expect(['SUCCESS', 'IN_PROGRESS', 'FAILURE', 'QUEUED', 'NOT_START'].map(taskStatusColor)).toEqual(['success', 'primary', 'orange', 'secondary', 'default']);
    expect(['IMAGINE', 'UPSCALE', 'VARIATION', 'PAN'].map(actionColor)).toEqual(['primary', 'orange', 'default', 'secondary']);
    expect(['SUCCESS', 'MODAL'].map(statusColor)).toEqual(['success', 'default']);
    // 22 is queued and 21 already exists, as the relay means them (the original console swapped them).
    expect([SUBMIT_CODES[22].key, SUBMIT_CODES[21].key]).toEqual(['queued', 'exists']);
  });
  it('measures durations only for finished tasks', () => {
    expect(durationSeconds(1000, 62_500, 1000)).toBe(61.5);
    expect(durationSeconds(100, 0)).toBeNull();
    expect(durationSeconds(100, 130)).toBe(30);
  });
});
