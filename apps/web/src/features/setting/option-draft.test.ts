import { describe, expect, it } from 'vitest';
import { changedEntries, checkEntries, draftsFrom, entryBounds, toDisplay, type FieldSpec } from './option-draft';

const fields: FieldSpec[] = [
  { key: 'QuotaPerUnit', input: 'number', min: 0 },
  { key: 'RechargeDiscount', input: 'json' },
  { key: 'SMTPToken' },
  { key: 'SMTPPort', input: 'number', optional: true },
  { key: 'ServerAddress', url: true },
  { key: 'SafeKeyWords', input: 'lines' },
];
const stored = { QuotaPerUnit: '500000', RechargeDiscount: '{"100":0.9}', SMTPPort: '587', ServerAddress: 'https://a.io', SafeKeyWords: '["x","y"]' };

describe('settings drafts', () => {
  it('shows JSON pretty-printed, keyword arrays one per line and secrets blank', () => {
    const d = draftsFrom(fields, stored);
    expect(d.RechargeDiscount).toBe('{\n  "100": 0.9\n}');
    expect(d.SafeKeyWords).toBe('x\ny');
    expect(d.SMTPToken).toBe('');
    expect(toDisplay({ key: 'RechargeDiscount', input: 'json' }, 'not json')).toBe('not json');
  });

  it('sends nothing when nothing changed, even though JSON was reformatted', () => {
    expect(changedEntries(fields, stored, draftsFrom(fields, stored))).toEqual([]);
  });

  it('sends only changed keys, trims slashes, leaves blank secrets and a blank port alone', () => {
    const d = { ...draftsFrom(fields, stored), QuotaPerUnit: '1000', ServerAddress: 'https://b.io//', SMTPPort: '', SafeKeyWords: 'x\n\n z ' };
    expect(changedEntries(fields, stored, d)).toEqual([
      ['QuotaPerUnit', '1000'],
      ['ServerAddress', 'https://b.io'],
      ['SafeKeyWords', 'x\nz'],
    ]);
    expect(changedEntries(fields, stored, { ...d, SMTPToken: 'secret' })).toContainEqual(['SMTPToken', 'secret']);
  });

  it('refuses negative numbers, non-numbers and bad JSON before sending', () => {
    expect(checkEntries(fields, [['QuotaPerUnit', '-1']])).toEqual({ QuotaPerUnit: 'validation.atLeast' });
    expect(checkEntries(fields, [['QuotaPerUnit', 'abc']])).toEqual({ QuotaPerUnit: 'validation.required' });
    expect(checkEntries(fields, [['SMTPPort', '5.5']])).toEqual({ SMTPPort: 'validation.integer' });
    expect(checkEntries(fields, [['RechargeDiscount', '{oops']])).toEqual({ RechargeDiscount: 'validation.json' });
    // A quota unit of 0 would divide by zero wherever quota is shown as money: the contract's bound refuses it.
    expect(checkEntries(fields, [['QuotaPerUnit', '0']])).toEqual({ QuotaPerUnit: 'validation.atLeast' });
    expect(checkEntries(fields, [['SMTPPort', '70000']])).toEqual({ SMTPPort: 'validation.atMost' });
    // The text names the bound ("Must be at least 1"), not a generic "Value is too small".
    const port = fields.find((x) => x.key === 'SMTPPort')!;
    expect(entryBounds(port)).toEqual({ min: 1, max: 65_535 });
    expect(checkEntries(fields, [['QuotaPerUnit', '0.5']])).toEqual({});
  });
});
