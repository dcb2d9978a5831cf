/** One SSE frame: optional `event:` line, one `data:` line (JSON unless a string), blank line. */
export function sseFrame(data: unknown, event?: string): string {
  const body = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${body}\n\n`;
}

/** Frames a typed event (Anthropic, Responses) with its `type` as the SSE event name. */
export const typedSseFrame = (event: { type: string }): string => sseFrame(event, event.type);
