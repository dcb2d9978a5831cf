import { describe, expect, it } from 'vitest';
import { AskedHolds } from './asked.js';

const frame = (event: Record<string, unknown>) => ({ data: Buffer.from(JSON.stringify(event)), event });

describe('AskedHolds', () => {
  it('gives a create without an event_id one, and forwards a create with its own unchanged', () => {
    const asked = new AskedHolds<string>('gw_r1_');
    const bare = frame({ type: 'response.create', response: { max_output_tokens: 10 } });
    expect(JSON.parse(String(asked.add(bare.event, bare.data, 'a')))).toEqual({ ...bare.event, event_id: 'gw_r1_1' });
    const empty = frame({ type: 'response.create', event_id: '' });
    expect(JSON.parse(String(asked.add(empty.event, empty.data, 'b'))).event_id).toBe('gw_r1_2');
    const own = frame({ type: 'response.create', event_id: 'evt_mine' });
    expect(asked.add(own.event, own.data, 'c')).toBe(own.data);
    expect(asked.size).toBe(3);
  });

  it('releases only the create an error names, and response.created takes the oldest left', () => {
    const asked = new AskedHolds<string>('gw_');
    for (const [id, hold] of [['e1', 'first'], ['e2', 'second'], ['e3', 'third']]) {
      const f = frame({ type: 'response.create', event_id: id });
      asked.add(f.event, f.data, hold);
    }
    // Errors about other events, or naming none, free nothing.
    expect(asked.rejected('evt_delete')).toBeUndefined();
    expect(asked.rejected(null)).toBeUndefined();
    expect(asked.rejected(undefined)).toBeUndefined();
    expect(asked.rejected('e2')).toBe('second');
    expect(asked.rejected('e2')).toBeUndefined();
    expect(asked.take()).toBe('first');
    expect(asked.drain()).toEqual(['third']);
    expect(asked.size).toBe(0);
  });

  it('rejects the oldest of creates that reuse one event_id', () => {
    const asked = new AskedHolds<string>('gw_');
    for (const hold of ['older', 'newer']) {
      const f = frame({ type: 'response.create', event_id: 'same' });
      asked.add(f.event, f.data, hold);
    }
    expect(asked.rejected('same')).toBe('older');
    expect(asked.take()).toBe('newer');
  });
});
