import type { Updateable } from 'kysely';
import type { MidjourneysTable } from '../../../db/schema.js';
import type { MidjourneyRow } from '../../../db/repos/tasks.js';
import { parseJsonOr } from '../../../common/json.js';
import { withLinks } from '../results.js';
import type { ChannelRow } from '../../../db/repos/channels.js';
import { signLink } from '../facts.js';

/** How long an image link handed to a client stays valid. */
export const IMAGE_LINK_SECONDS = 3600;

/** The gateway's signed link to a task's image (relay.md §10.12: the image is no longer open to anyone). */
export function imageLink(base: string, channel: ChannelRow, mjId: string, expires = Math.floor(Date.now() / 1000) + IMAGE_LINK_SECONDS): string {
  return `${base.replace(/\/+$/, '')}/mj/image/${encodeURIComponent(mjId)}?expires=${expires}&sig=${signLink(channel, `image:${mjId}`, expires)}`;
}

/** A task as Midjourney-Proxy reports it (fetch, list-by-condition, notify). Lenient: read what we keep. */
export interface UpstreamMjTask {
  id: string;
  action?: string;
  prompt?: string;
  promptEn?: string;
  description?: string;
  state?: string;
  submitTime?: number;
  startTime?: number;
  finishTime?: number;
  imageUrl?: string;
  status?: string;
  progress?: string;
  failReason?: string;
  buttons?: unknown;
  properties?: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The row fields an upstream view sets (only those it carries). */
export function taskUpdate(t: UpstreamMjTask): Updateable<MidjourneysTable> {
  const set: Updateable<MidjourneysTable> = {};
  if (str(t.prompt) !== undefined) set.prompt = t.prompt;
  if (str(t.promptEn) !== undefined) set.prompt_en = t.promptEn;
  if (str(t.description) !== undefined) set.description = t.description;
  if (str(t.state) !== undefined) set.state = t.state;
  if (num(t.startTime) !== undefined) set.start_time = t.startTime;
  if (num(t.finishTime) !== undefined) set.finish_time = t.finishTime;
  if (str(t.imageUrl) !== undefined) set.image_url = t.imageUrl;
  if (str(t.status) !== undefined) set.status = t.status;
  if (str(t.progress) !== undefined && /^\d{1,3}%$/.test(t.progress!)) set.progress = t.progress;
  if (str(t.failReason) !== undefined) set.fail_reason = t.failReason!.slice(0, 500);
  if (Array.isArray(t.buttons)) set.buttons = JSON.stringify(t.buttons);
  if (t.properties && typeof t.properties === 'object') set.properties = JSON.stringify(t.properties);
  return set;
}

/**
 * A row as the caller reads it, in Midjourney-Proxy's task shape. The image URL is the
 * gateway's signed link, never the upstream's; the channel is not named.
 */
export function clientTask(row: MidjourneyRow, imageLink: (row: MidjourneyRow) => string) {
  return {
    id: row.mj_id,
    action: row.action,
    customId: '',
    botType: '',
    prompt: row.prompt ?? '',
    promptEn: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    mode: row.mode ?? '',
    submitTime: row.submit_time,
    startTime: row.start_time,
    finishTime: row.finish_time,
    imageUrl: row.image_url ? imageLink(row) : '',
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason ?? '',
    buttons: parseJsonOr<unknown[]>(row.buttons, []),
    maskBase64: '',
    // Upstream properties may carry the image URL: it becomes the gateway's link too.
    properties: withLinks(parseJsonOr<Record<string, unknown>>(row.properties, {}), () => imageLink(row)),
  };
}
