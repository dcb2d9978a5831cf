import { describe, expect, it } from 'vitest';
import { exemptFromGlobalLimit } from './rate-limit.js';

describe('exemptFromGlobalLimit', () => {
  it.each([
    ['GET', '/api/metrics', true],
    ['GET', '/api/metrics?x=1', true],
    ['POST', '/api/system_info/log', true],
    ['GET', '/api/system_info/log', false],
    ['POST', '/api/telegram/abc123', true],
    ['GET', '/api/telegram/abc123', false],
    ['GET', '/api/status', false],
    ['POST', '/api/user/login', false],
    ['GET', '/api/metricsx', false],
  ])('%s %s → %s', (method, path, exempt) => {
    expect(exemptFromGlobalLimit(method, path)).toBe(exempt);
  });
});
