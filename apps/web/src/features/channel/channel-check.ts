/** What POST /api/sse/channel/check streams (relay.md §7.4): one result per model, heartbeats, then done. */
export interface CheckItem {
  name: 'basic' | 'error' | 'image' | 'json_schema' | 'tools';
  /** 0 failed, 1 success, 2 unknown. */
  status: 0 | 1 | 2;
  remark: string;
  raw: string;
}
export interface ModelReport {
  model: string;
  checks: CheckItem[];
}
export type CheckEvent = { type: 'result'; data: ModelReport } | { type: 'heartbeat'; data: string } | { type: 'done'; data: string } | { type: 'error'; data: string };

/** Splits received SSE text into complete events (their `data:` JSON) and the unfinished rest. */
export function parseSse(buffer: string): { events: CheckEvent[]; rest: string } {
  const blocks = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: CheckEvent[] = [];
  for (const block of blocks) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      events.push(JSON.parse(data) as CheckEvent);
    } catch {
      // a line that is not JSON is not an event of this stream
    }
  }
  return { events, rest };
}

/** A model passes when no check failed outright. */
export const passed = (r: ModelReport) => r.checks.every((c) => c.status !== 0);

/** Provider models worth checking: OpenAI chat (no -all, -realtime, -instruct), Gemini and Claude. */
export function checkable(models: string[]): string[] {
  return models.filter((m) => (/^(gpt-|chatgpt-)/.test(m) && !/-(all|realtime|instruct)/.test(m)) || m.startsWith('gemini-') || m.startsWith('claude-'));
}

/** Runs the check and calls `onEvent` for each event; a refusal before the stream throws its message. */
export async function runCheck(id: number, models: string[], onEvent: (e: CheckEvent) => void, signal?: AbortSignal): Promise<void> {
  const res = await fetch('/api/sse/channel/check', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, models: models.join(',') }), signal });
  if (!String(res.headers.get('content-type')).includes('text/event-stream')) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message || `Request failed with status code ${res.status}`);
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const parsed = parseSse(buffer);
    buffer = parsed.rest;
    parsed.events.forEach(onEvent);
  }
  parseSse(`${buffer}\n\n`).events.forEach(onEvent);
}
