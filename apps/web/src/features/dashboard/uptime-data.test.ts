import { describe, expect, it } from 'vitest';
import { monitorsOf, uptimeTone } from './uptime-data';

describe('uptime data', () => {
  it('joins monitors with their latest beat, 24 h availability and history', () => {
    const page = { publicGroupList: [{ name: 'Gateways', monitorList: [{ id: 1, name: 'api' }, { id: 2, name: 'new' }] }] };
    const beats = {
      heartbeatList: { '1': [{ status: 0, time: '2026-01-01 10:00:00', ping: null }, { status: 1, time: '2026-01-01 10:01:00', ping: 42 }] },
      uptimeList: { '1_24': 0.98765 },
    };
    expect(monitorsOf(page, beats)).toEqual([
      { id: 1, name: 'api', group: 'Gateways', status: 1, ping: 42, time: '2026-01-01 10:01:00', uptime: 98.77, history: [0, 1] },
      { id: 2, name: 'new', group: 'Gateways', status: null, ping: null, time: '', uptime: null, history: [] },
    ]);
    expect(monitorsOf({}, {})).toEqual([]);
  });

  it('colours availability', () => {
    expect([100, 90, 89.9, 70.1, 70, 10].map(uptimeTone)).toEqual(['success', 'success', 'warning', 'warning', 'error', 'error']);
  });
});
