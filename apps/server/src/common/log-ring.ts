import { format } from 'node:util';
import type { SystemLogEntry } from '@one-hub/contract';

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** Reads pino's call arguments (`log.warn({err}, 'text %s', x)` or `log.info('text')`) as one line. */
function messageOf(args: unknown[]): string {
  const [first, ...rest] = args;
  if (typeof first === 'string') return format(first, ...rest);
  const text = rest.length && typeof rest[0] === 'string' ? format(rest[0], ...rest.slice(1)) : '';
  const err = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
  if (err instanceof Error) return text ? `${text}: ${err.message}` : err.message;
  return text || (first === undefined ? '' : JSON.stringify(first));
}

/** The last `capacity` server log lines, kept in memory for the console's log viewer (api.md §28). */
export class LogRing {
  private readonly entries: SystemLogEntry[] = [];
  private next = 0;

  constructor(private readonly capacity = 500) {}

  record(level: number, args: unknown[]): void {
    const entry = { Timestamp: new Date().toISOString(), Level: LEVELS[level] ?? String(level), Message: messageOf(args) };
    if (this.entries.length < this.capacity) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** The newest `count` lines, oldest first. */
  last(count: number): SystemLogEntry[] {
    const ordered = this.entries.length < this.capacity ? this.entries : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return ordered.slice(-count);
  }
}
