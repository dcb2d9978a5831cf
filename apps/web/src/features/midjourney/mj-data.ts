import type { ChipColor } from '../../components/data';

/** Type chip (console-screens §3.13): imagine primary, upscale orange, variation default, the rest secondary. */
export function actionColor(action: string): ChipColor {
  if (action === 'IMAGINE') return 'primary';
  if (action === 'UPSCALE') return 'orange';
  if (action === 'VARIATION' || action === 'HIGH_VARIATION' || action === 'LOW_VARIATION') return 'default';
  return 'secondary';
}

/**
 * Submit result codes as the relay means them (api.md §2.16): 22 is "queued" and 21 "already exists".
 * The original console labelled them the other way round; this follows the relay.
 */
export const SUBMIT_CODES: Record<number, { key: string; color: ChipColor }> = {
  0: { key: 'notSubmitted', color: 'default' },
  1: { key: 'submitted', color: 'primary' },
  21: { key: 'exists', color: 'default' },
  22: { key: 'queued', color: 'orange' },
  3: { key: 'noAccount', color: 'error' },
  4: { key: 'requestError', color: 'error' },
  5: { key: 'unknownError', color: 'error' },
};

/** Task status chip: success green, in progress primary, failure orange, queued/submitted secondary. */
export function statusColor(status: string): ChipColor {
  switch (status) {
    case 'SUCCESS':
      return 'success';
    case 'IN_PROGRESS':
      return 'primary';
    case 'FAILURE':
      return 'orange';
    case 'SUBMITTED':
    case 'QUEUED':
      return 'secondary';
    default:
      return 'default';
  }
}

/** Seconds from start to finish, or null while unfinished; `unit` 1000 for millisecond times. */
export function durationSeconds(start: number, finish: number, unit = 1): number | null {
  if (!start || !finish || finish < start) return null;
  return Math.round(((finish - start) / unit) * 10) / 10;
}
