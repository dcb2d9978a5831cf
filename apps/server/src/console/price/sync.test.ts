import { describe, expect, it } from 'vitest';
import { planPriceSync } from './sync.js';

const stored = [
  { model: 'a', locked: false },
  { model: 'b', locked: true },
  { model: 'c', locked: false },
];
const incoming = [{ model: 'a' }, { model: 'b' }, { model: 'new' }, { model: 'new' }];

describe('planPriceSync', () => {
  it.each([
    ['system', [], ['new']],
    ['add', [], ['new']],
    ['update', ['a'], ['a']],
    ['overwrite', ['a', 'c'], ['a', 'new']],
  ] as const)('%s', (mode, remove, insert) => {
    const plan = planPriceSync(stored, incoming, mode);
    expect(plan.remove).toEqual(remove);
    expect(plan.insert.map((p) => p.model)).toEqual(insert);
  });
});
