import { describe, expect, it } from 'vitest';
import { adapterFor } from '../index.js';
import type { ChannelTarget } from '../types.js';
import { azureVoice, speechSsml } from './index.js';

const channel = (fields: Partial<ChannelTarget>): ChannelTarget => ({ id: 1, type: 24, key: 'sub-key', baseUrl: '', other: '', headers: {}, ...fields });

describe('Azure Speech adapter', () => {
  it('maps voices: plugin name|style first, then the defaults, else the value as an Azure voice', () => {
    expect(azureVoice('alloy', undefined)).toEqual({ name: 'en-US-AvaMultilingualNeural' });
    expect(azureVoice('alloy', { voice: { alloy: 'zh-CN-YunxiNeural|sad' } })).toEqual({ name: 'zh-CN-YunxiNeural', style: 'sad' });
    expect(azureVoice('ja-JP-NanamiNeural', {})).toEqual({ name: 'ja-JP-NanamiNeural' });
  });

  it('writes escaped SSML in the voice language, with rate and style', () => {
    expect(speechSsml('a < b', { name: 'ja-JP-NanamiNeural' })).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xmlns:mstts="https://www.w3.org/2001/mstts" xml:lang="ja-JP"><voice name="ja-JP-NanamiNeural">a &lt; b</voice></speak>',
    );
    expect(speechSsml('x', { name: 'en-US-JennyNeural', style: 'cheerful' }, 0.75)).toContain('<mstts:express-as style="cheerful"><prosody rate="-25%">x</prosody></mstts:express-as>');
  });

  it('uses the region from other (or the base URL), the subscription key and the output format', () => {
    const speech = adapterFor(24)!;
    const req = speech.buildRequest('audio/speech', { model: 'tts-1', input: 'hi', voice: 'echo', response_format: 'opus' }, channel({ other: 'eastus' }), { stream: false, raw: false, model: 'tts-1' });
    expect(req.url).toBe('https://eastus.tts.speech.microsoft.com/cognitiveservices/v1');
    expect(req.headers).toMatchObject({ 'ocp-apim-subscription-key': 'sub-key', 'content-type': 'application/ssml+xml', 'x-microsoft-outputformat': 'ogg-24khz-16bit-mono-opus' });
    expect(speech.buildRequest('audio/speech', { input: 'hi' }, channel({ baseUrl: 'https://tts.example/' }), { stream: false, raw: false, model: 'tts-1' }).url).toBe('https://tts.example/cognitiveservices/v1');
    expect(() => speech.buildRequest('audio/speech', { input: 'hi' }, channel({}), { stream: false, raw: false, model: 'tts-1' })).toThrow(/region/);
  });
});
