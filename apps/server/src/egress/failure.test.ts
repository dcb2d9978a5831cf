import { describe, expect, it } from 'vitest';
import { HubError } from '../common/errors.js';
import type { ChannelRow } from '../db/repos/channels.js';
import { callerError, scrubIdentity } from './failure.js';

const row = { id: 1, type: 1, key: 'line-one-key\nline-two|pipe-part-x\n ab ', base_url: 'http://10.1.2.3:8443/v1' } as ChannelRow;

describe('caller errors', () => {
  it('removes every key line and | part, and for non-admins the host, IP, port and any URL', () => {
    const text = 'line-one-key line-two pipe-part-x at http://10.1.2.3:8443/v1 (10.1.2.3, port 8443) via https://other.example/x; ab stays';
    const out = scrubIdentity(text, row, false);
    for (const secret of ['line-one-key', 'line-two', 'pipe-part-x', '10.1.2.3', '8443', 'other.example']) expect(out).not.toContain(secret);
    expect(out).toContain('ab stays');
    const admin = scrubIdentity(text, row, true);
    expect(admin).toContain('10.1.2.3:8443');
    expect(admin).not.toContain('pipe-part-x');
  });

  it('turns an upstream auth failure into an outage and keeps a caller error as it is', () => {
    const auth = callerError(new HubError(401, 'Provider API error: bad key line-one-key', { type: 'authentication_error' }), { retry: true, channelFault: true }, row, false);
    expect(auth).toMatchObject({ status: 503, code: 'upstream_unavailable', type: 'upstream_error' });
    expect(auth.message).not.toContain('bad key');
    const own = callerError(new HubError(400, 'context too long', { code: 'context_length_exceeded' }), { retry: false, channelFault: false }, row, false);
    expect(own).toMatchObject({ status: 400, message: 'context too long', code: 'context_length_exceeded' });
    const admin = callerError(new HubError(500, 'boom at 10.1.2.3'), { retry: true, channelFault: false }, row, true);
    expect(admin).toMatchObject({ status: 502, message: 'upstream error: boom at 10.1.2.3' });
  });
});
