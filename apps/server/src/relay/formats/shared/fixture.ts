import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Test helper: reads a fixture file next to the calling family's folder. */
export function readFixture(family: string, name: string): string {
  return readFileSync(join(import.meta.dirname, '..', family, '__fixtures__', name), 'utf8');
}

export const jsonFixture = <T>(family: string, name: string): T => JSON.parse(readFixture(family, name)) as T;

/** Test helper: the JSON `data:` payloads of a recorded SSE transcript, in order (`[DONE]` skipped). */
export function sseEvents<T>(family: string, name: string): T[] {
  return readFixture(family, name)
    .split(/\r?\n\r?\n/)
    .map((frame) => frame.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n'))
    .filter((d) => d && d !== '[DONE]')
    .map((d) => JSON.parse(d) as T);
}
