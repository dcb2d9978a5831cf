import { HubError } from '../../../common/errors.js';
import { BinaryAnswer, type ChannelTarget, type Endpoint } from '../types.js';

/** OpenAI's six voices → MiniMax system voices; the `voice` plugin overrides (`voice_id|emotion`). */
const DEFAULT_VOICES: Record<string, string> = {
  alloy: 'male-qn-qingse',
  echo: 'male-qn-jingying',
  fable: 'male-qn-badao',
  onyx: 'male-qn-daxuesheng',
  nova: 'female-shaonv',
  shimmer: 'female-yujie',
};
const AUDIO_TYPES: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', flac: 'audio/flac', pcm: 'audio/pcm' };

/** Keys may be `apiKey|groupId` (older accounts name their group in the URL). */
const parts = (c: ChannelTarget) => c.key.split('|').map((s) => s.trim());
export const minimaxAuth = (c: ChannelTarget) => ({ authorization: `Bearer ${parts(c)[0]}` });

export function minimaxUrl(channel: ChannelTarget, endpoint: Endpoint): string {
  const base = channel.baseUrl.replace(/\/+$/, '');
  if (endpoint !== 'audio/speech') return `${base}/v1/text/chatcompletion_v2`;
  const group = parts(channel)[1];
  return `${base}/v1/t2a_v2${group ? `?GroupId=${encodeURIComponent(group)}` : ''}`;
}

/** OpenAI speech → MiniMax T2A v2 (hex audio in a JSON answer). */
export function minimaxBody(endpoint: Endpoint, body: Record<string, unknown>, model: string, channel: ChannelTarget): Record<string, unknown> {
  if (endpoint !== 'audio/speech') return body;
  const voice = String(body.voice ?? 'alloy');
  const mapped = channel.plugin?.voice?.[voice];
  const [voiceId, emotion] = (typeof mapped === 'string' && mapped ? mapped : DEFAULT_VOICES[voice] ?? voice).split('|');
  const format = typeof body.response_format === 'string' && body.response_format in AUDIO_TYPES ? body.response_format : 'mp3';
  return {
    model,
    text: body.input,
    stream: false,
    output_format: 'hex',
    voice_setting: { voice_id: voiceId, speed: typeof body.speed === 'number' ? body.speed : 1, vol: 1, pitch: 0, ...(emotion ? { emotion } : {}) },
    audio_setting: { sample_rate: 32000, bitrate: 128000, format, channel: 1 },
  };
}

interface T2aAnswer {
  data?: { audio?: string };
  extra_info?: { audio_format?: string };
  base_resp?: { status_code?: number; status_msg?: string };
}

/** MiniMax reports failures in `base_resp` with HTTP 200; audio comes hex-encoded. */
export function minimaxAnswer(endpoint: Endpoint, json: unknown): unknown {
  const status = (json as T2aAnswer)?.base_resp;
  if (status?.status_code) {
    const code = status.status_code;
    const http = code === 1004 || code === 2049 ? 401 : code === 1002 || code === 1039 ? 429 : code === 1008 ? 402 : 400;
    throw new HubError(http, `Provider API error: ${status.status_msg ?? 'MiniMax error'} (code ${code})`, { type: 'upstream_error', code: String(code), retryable: http !== 400 });
  }
  if (endpoint !== 'audio/speech') return json;
  const a = json as T2aAnswer;
  const format = a.extra_info?.audio_format ?? 'mp3';
  return new BinaryAnswer(Buffer.from(a.data?.audio ?? '', 'hex'), AUDIO_TYPES[format] ?? 'application/octet-stream');
}
