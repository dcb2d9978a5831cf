import { describe, expect, it } from 'vitest';
import { actionOfCustomId, mjModel, modeOf, parseSimpleChange, rewriteCode, upstreamBody } from './mapping.js';

describe('midjourney mapping', () => {
  it('resolves MJ-Plus customIds to actions', () => {
    const table: Array<[string, string]> = [
      ['MJ::JOB::upsample::2::abc', 'UPSCALE'],
      ['MJ::JOB::variation::1::abc', 'VARIATION'],
      ['MJ::JOB::low_variation::1::abc::SOLO', 'LOW_VARIATION'],
      ['MJ::JOB::high_variation::1::abc::SOLO', 'HIGH_VARIATION'],
      ['MJ::JOB::reroll::0::abc::SOLO', 'REROLL'],
      ['MJ::JOB::pan_left::1::abc::SOLO', 'PAN'],
      ['MJ::Outpaint::50::1::abc::SOLO', 'ZOOM'],
      ['MJ::CustomZoom::abc', 'CUSTOM_ZOOM'],
      ['MJ::Inpaint::1::abc::SOLO', 'INPAINT'],
    ];
    for (const [id, action] of table) expect(actionOfCustomId(id)).toBe(action);
    expect(() => actionOfCustomId('MJ::Unknown::1')).toThrow(/不支持/);
    expect(() => actionOfCustomId(42)).toThrow(/customId/);
  });

  it('parses simple-change content and names models by mode', () => {
    expect(parseSimpleChange('123 U2')).toEqual({ taskId: '123', action: 'UPSCALE', index: 2 });
    expect(parseSimpleChange(' 9 v4 ')).toEqual({ taskId: '9', action: 'VARIATION', index: 4 });
    expect(parseSimpleChange('9 R')).toEqual({ taskId: '9', action: 'REROLL', index: undefined });
    for (const bad of ['9 U5', '9 R1', '9 U', 'U1', '', null]) expect(() => parseSimpleChange(bad)).toThrow(/content/);
    expect(mjModel('fast', 'IMAGINE')).toBe('mj_imagine');
    expect(mjModel('relax', 'UPSCALE')).toBe('mj_relax_upscale');
    expect(modeOf('mj-turbo')).toBe('turbo');
    expect(() => modeOf('mj-slow')).toThrow('无效的加速模式');
  });

  it('builds the upstream body and rewrites codes', () => {
    expect(upstreamBody({ prompt: 'cat --relax  --v 6 --turbo', notifyHook: 'x', accountFilter: { a: 1 } }, 'turbo', undefined)).toEqual({ prompt: 'cat --v 6', accountFilter: { modes: ['TURBO'] } });
    expect(upstreamBody({ prompt: 'p' }, 'fast', 'https://hub/mj/notify')).toMatchObject({ notifyHook: 'https://hub/mj/notify' });
    expect([rewriteCode(22, 'IMAGINE'), rewriteCode(21, 'IMAGINE'), rewriteCode(21, 'INPAINT'), rewriteCode(24, 'IMAGINE')]).toEqual([1, 1, 21, 24]);
  });
});
