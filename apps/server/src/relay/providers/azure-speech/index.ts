import { HubError } from '../../../common/errors.js';
import { scrubSecrets } from '../openai-compatible/index.js';
import type { ChannelTarget, Endpoint, ProviderAdapter } from '../types.js';

/** OpenAI's six voices → Azure neural voices (multilingual where Azure has one); the `voice` plugin overrides. */
const DEFAULT_VOICES: Record<string, string> = {
  alloy: 'en-US-AvaMultilingualNeural',
  echo: 'en-US-AndrewMultilingualNeural',
  fable: 'en-GB-SoniaNeural',
  onyx: 'en-US-BrianMultilingualNeural',
  nova: 'en-US-EmmaMultilingualNeural',
  shimmer: 'en-US-JennyNeural',
};

/** OpenAI `response_format` → Azure output format (24 kHz mono). */
const FORMATS: Record<string, { azure: string }> = {
  mp3: { azure: 'audio-24khz-48kbitrate-mono-mp3' },
  opus: { azure: 'ogg-24khz-16bit-mono-opus' },
  wav: { azure: 'riff-24khz-16bit-mono-pcm' },
  pcm: { azure: 'raw-24khz-16bit-mono-pcm' },
};

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** `name|style` from the plugin, else the default for OpenAI's voice, else the value as an Azure voice name. */
export function azureVoice(voice: string, plugin: ChannelTarget['plugin']): { name: string; style?: string } {
  const mapped = plugin?.voice?.[voice];
  const value = typeof mapped === 'string' && mapped ? mapped : DEFAULT_VOICES[voice] ?? voice;
  const [name, style] = value.split('|');
  return { name, style: style || undefined };
}

/** The SSML document for one speech request; speed becomes a relative prosody rate. */
export function speechSsml(input: string, voice: { name: string; style?: string }, speed?: number): string {
  const lang = /^[a-z]{2}-[A-Z]{2}/.exec(voice.name)?.[0] ?? 'en-US';
  let inner = escapeXml(input);
  if (typeof speed === 'number' && speed !== 1) inner = `<prosody rate="${Math.round((speed - 1) * 100)}%">${inner}</prosody>`;
  if (voice.style) inner = `<mstts:express-as style="${escapeXml(voice.style)}">${inner}</mstts:express-as>`;
  return `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xmlns:mstts="https://www.w3.org/2001/mstts" xml:lang="${lang}"><voice name="${escapeXml(voice.name)}">${inner}</voice></speak>`;
}

/** Azure Speech (type 24): OpenAI speech requests as SSML to the regional TTS endpoint (`other` = region). */
export const azureSpeech: ProviderAdapter = {
  types: [24],
  name: 'azure-speech',
  dialect: 'openai',
  endpoints: new Set<Endpoint>(['audio/speech']),
  regionalHost: true,

  buildRequest(_endpoint, body, channel) {
    const b = body as { input?: unknown; voice?: unknown; response_format?: unknown; speed?: unknown };
    const region = channel.other.trim();
    const base = region ? `https://${region}.tts.speech.microsoft.com` : channel.baseUrl.replace(/\/+$/, '');
    if (!base) throw new HubError(503, 'Azure Speech channel needs a region (other) or a base URL', { code: 'channel_misconfigured', retryable: true });
    const format = FORMATS[String(b.response_format ?? 'mp3')] ?? FORMATS.mp3;
    const ssml = speechSsml(String(b.input ?? ''), azureVoice(String(b.voice ?? 'alloy'), channel.plugin), typeof b.speed === 'number' ? b.speed : undefined);
    return {
      url: `${base}/cognitiveservices/v1`,
      headers: {
        ...channel.headers,
        'ocp-apim-subscription-key': channel.key,
        'content-type': 'application/ssml+xml',
        'x-microsoft-outputformat': format.azure,
        'user-agent': 'one-hub',
      },
      body: Buffer.from(ssml),
      raw: true,
    };
  },
  parseUsage: () => null,
  createStreamMapper() {
    throw new HubError(400, 'Azure Speech does not stream', { code: 'unsupported_endpoint' });
  },
  mapError(status, body) {
    const text = body.trim() || (status === 401 ? 'invalid subscription key or wrong region' : `status ${status}`);
    return new HubError(status, `Provider API error: ${scrubSecrets(text).slice(0, 1000)}`, { type: 'upstream_error', upstream: body.slice(0, 2000) });
  },
};
