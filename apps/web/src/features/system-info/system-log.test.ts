import { describe, expect, it } from 'vitest';
import { entryCount, levelColor, visibleEntries } from './system-log';

const entry = (Timestamp: string, Level: string, Message: string) => ({ Timestamp, Level, Message });
const LOG = [entry('2026-01-01T10:00:00.000Z', 'info', 'server started'), entry('2026-01-01T10:00:01.000Z', 'warn', 'Channel 3 slow'), entry('2026-01-01T10:00:02.000Z', 'error', 'flush failed')];

describe('system log viewer helpers', () => {
  it('lists newest first, searching message and level in any case', () => {
    expect(visibleEntries(LOG, '', null).map((e) => e.Message)).toEqual(['flush failed', 'Channel 3 slow', 'server started']);
    expect(visibleEntries(LOG, ' channel ', null).map((e) => e.Message)).toEqual(['Channel 3 slow']);
    expect(visibleEntries(LOG, 'ERROR', null).map((e) => e.Message)).toEqual(['flush failed']);
    expect(LOG[0].Message).toBe('server started');
  });

  it('hides lines up to the clear mark', () => {
    expect(visibleEntries(LOG, '', '2026-01-01T10:00:01.000Z').map((e) => e.Message)).toEqual(['flush failed']);
    expect(visibleEntries(LOG, '', '2026-01-01T10:00:02.000Z')).toEqual([]);
  });

  it('keeps the requested count whole and within what the server holds', () => {
    expect(entryCount('120')).toBe(120);
    expect(entryCount('9999')).toBe(500);
    for (const bad of ['0', '-4', '2.5', 'abc', '']) expect(entryCount(bad), bad).toBe(50);
  });

  it('colours levels', () => {
    expect([levelColor('fatal'), levelColor('error'), levelColor('warn'), levelColor('info'), levelColor('debug')]).toEqual(['error', 'error', 'warning', 'info', 'default']);
  });
});
