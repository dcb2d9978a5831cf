const pad = (v: number) => String(v).padStart(2, '0');

/** Epoch seconds → `YYYY-MM-DD HH:mm:ss` in local time (console-spec §9). */
export function formatTimestamp(seconds: number): string {
  return formatDate(new Date(seconds * 1000));
}

/** Epoch milliseconds (Midjourney tasks) → `YYYY-MM-DD HH:mm:ss` in local time. */
export function formatTimestampMs(ms: number): string {
  return formatDate(new Date(ms));
}

function formatDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
