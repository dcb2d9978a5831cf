import { describe, expect, it } from 'vitest';
import { adapterFor } from './index.js';
import { aspectRatio, stabilityRoute } from './stability/index.js';
import type { ChannelTarget } from './types.js';

const target = (type: number): ChannelTarget => ({ id: 1, type, key: 'k', baseUrl: 'https://up.example/v2beta/', other: '', headers: {} });

describe('image providers', () => {
  it('maps sizes to Stability aspect ratios and model names to services', () => {
    expect([aspectRatio('1024x1024'), aspectRatio('1792x1024'), aspectRatio('1024x1792'), aspectRatio('1536x1024'), aspectRatio('auto')]).toEqual(['1:1', '16:9', '9:16', '3:2', undefined]);
    expect(stabilityRoute('sd3')).toEqual({ service: 'sd3', model: 'sd3-large' });
    expect(stabilityRoute('sd3.5-medium')).toEqual({ service: 'sd3', model: 'sd3.5-medium' });
    expect(stabilityRoute('stable-image-core')).toEqual({ service: 'core' });
    expect(stabilityRoute('stable-image-ultra')).toEqual({ service: 'ultra' });
  });

  it('Stability: form body, JSON accept, filtered images are an error, error lists joined', () => {
    const s = adapterFor(37)!;
    const req = s.buildRequest('images/generations', { prompt: 'p', size: '1024x1024' }, target(37), { stream: false, raw: false, model: 'stable-image-core' });
    expect(req.url).toBe('https://up.example/v2beta/stable-image/generate/core');
    expect(req.headers).toMatchObject({ authorization: 'Bearer k', accept: 'application/json' });
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect((req.body as Buffer).toString()).toContain('name="aspect_ratio"\r\n\r\n1:1');
    expect(() => s.transformResponse!('images/generations', { image: '', finish_reason: 'CONTENT_FILTERED' }, {})).toThrow(/filtered/);
    expect(s.transformResponse!('images/generations', { image: 'QUJD', finish_reason: 'SUCCESS' }, { response_format: 'url' })).toMatchObject({ data: [{ url: 'data:image/png;base64,QUJD' }] });
    expect(s.mapError(403, JSON.stringify({ id: 'x', name: 'content_moderation', errors: ['flagged', 'again'] }))).toMatchObject({ status: 403, code: 'content_moderation', message: 'Provider API error: flagged; again' });
  });

  it('Replicate: latest or pinned version, failed and unfinished predictions are errors', () => {
    const r = adapterFor(52)!;
    const pinned = r.buildRequest('images/generations', { prompt: 'p' }, target(52), { stream: false, raw: false, model: 'owner/model:abc123' });
    expect(pinned).toMatchObject({ url: 'https://up.example/v2beta/v1/predictions', body: { version: 'abc123', input: { prompt: 'p' } } });
    expect(() => r.buildRequest('images/generations', { prompt: 'p' }, target(52), { stream: false, raw: false, model: 'flux' })).toThrow(/owner\/name/);
    expect(() => r.transformResponse!('images/generations', { id: 'p', status: 'failed', error: 'NSFW' }, {})).toThrow('NSFW');
    expect(() => r.transformResponse!('images/generations', { id: 'p', status: 'processing' }, {})).toThrow(/still processing/);
    expect(r.transformResponse!('images/generations', { id: 'p', status: 'succeeded', output: 'https://x/y.png' }, {})).toMatchObject({ data: [{ url: 'https://x/y.png' }] });
  });
});
