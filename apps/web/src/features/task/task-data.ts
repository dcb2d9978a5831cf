import type { AsyncTask } from '@one-hub/contract';
import type { ChipColor } from '../../components/data';

/** Status chip (console-screens §3.16). */
export function taskStatusColor(status: string): ChipColor {
  switch (status) {
    case 'SUCCESS':
      return 'success';
    case 'IN_PROGRESS':
      return 'primary';
    case 'FAILURE':
      return 'orange';
    case 'QUEUED':
    case 'SUBMITTED':
      return 'secondary';
    default:
      return 'default';
  }
}

export interface SunoClip {
  id: string;
  title: string;
  prompt: string;
  tags: string;
  audioUrl: string;
  videoUrl: string;
  imageUrl: string;
  raw: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The clips of a Suno music result: an array of songs, or an object holding one under `clips`/`data`. */
export function sunoClips(data: unknown): SunoClip[] {
  const list = Array.isArray(data) ? data : data && typeof data === 'object' ? ((data as Record<string, unknown>).clips ?? (data as Record<string, unknown>).data) : null;
  if (!Array.isArray(list)) return [];
  return list
    .filter((c): c is Record<string, unknown> => Boolean(c) && typeof c === 'object')
    .map((c, i) => {
      const meta = (c.metadata && typeof c.metadata === 'object' ? c.metadata : {}) as Record<string, unknown>;
      return {
        id: text(c.id) || String(i),
        title: text(c.title),
        prompt: text(meta.prompt) || text(c.prompt),
        tags: text(meta.tags),
        audioUrl: text(c.audio_url),
        videoUrl: text(c.video_url),
        imageUrl: text(c.image_url),
        raw: c,
      };
    });
}

/** Whether a task has anything to show in its detail dialog. */
export function hasDetail(data: unknown): boolean {
  if (data === null || data === undefined || data === '') return false;
  if (Array.isArray(data)) return data.length > 0;
  if (typeof data === 'object') return Object.keys(data).length > 0;
  return true;
}

/** Video results of a task: Kling's `task_result.videos[].url`. */
export function videoUrls(data: unknown): string[] {
  const result = data && typeof data === 'object' ? (data as Record<string, unknown>).task_result : undefined;
  const videos = result && typeof result === 'object' ? (result as Record<string, unknown>).videos : undefined;
  if (!Array.isArray(videos)) return [];
  return videos.map((v) => (v && typeof v === 'object' ? text((v as Record<string, unknown>).url) : '')).filter(Boolean);
}

/** The platforms the relay files tasks under. */
export { TASK_PLATFORMS } from '@one-hub/contract';

/** The videos a task can play: an OpenAI video job's file (streamed by the server once done), else Kling's results. */
export function taskVideos(task: AsyncTask): string[] {
  if (task.platform === 'videos') return task.status === 'SUCCESS' ? [`/api/task/${task.id}/content`] : [];
  return videoUrls(task.data);
}

/** What the list shows of a task's result: a song (with its cover, when there is one), a video, or nothing. */
export type TaskResult = { kind: 'audio'; cover: string } | { kind: 'video' } | { kind: 'none' };

export function taskResult(task: AsyncTask): TaskResult {
  if (task.platform === 'suno' && task.action === 'MUSIC') {
    const clips = sunoClips(task.data).filter((c) => c.audioUrl);
    if (clips.length) return { kind: 'audio', cover: clips.find((c) => c.imageUrl)?.imageUrl ?? '' };
  }
  return taskVideos(task).length ? { kind: 'video' } : { kind: 'none' };
}
