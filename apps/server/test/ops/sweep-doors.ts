/**
 * The leaky-upstream pass of the OpenAPI sweep: for each relay or task operation (path +
 * method), the minimal valid requests of its door family, so each reaches the upstream behind it.
 */

type Json = Record<string, any>;

/** A file part of a multipart body. */
interface FilePart {
  file: string;
  type: string;
  data: Buffer;
}
export type Fields = Record<string, string | FilePart>;

export interface DoorRequest {
  what: string;
  url: string;
  body?: Json;
  multipart?: Fields;
  stream?: boolean;
  /** Pinned to the OpenAI channel (`sk-…#<id>#ignore`, an admin's key): the pass-through doors. */
  pinned?: boolean;
  /** The gateway may answer it itself (Gemini's countTokens counts locally). */
  local?: boolean;
}

/** The models the sweep's channels serve, by family. */
export const MODELS = {
  openai: ['sweep-model', 'dall-e-2', 'dall-e-3', 'whisper-1', 'tts-1', 'text-embedding-3-small', 'text-moderation-latest', 'sweep-rerank', 'sora-2'],
  anthropic: ['claude-sweep'],
  gemini: ['gemini-sweep'],
  midjourney: ['mj_imagine', 'mj_relax_imagine', 'mj_swap_face', 'mj_relax_swap_face'],
  suno: ['chirp-v3-5', 'chirp-v3-0', 'suno_lyrics'],
  kling: ['kling-video_kling-v1_std_5'],
  recraft: ['recraftv3', 'recraft_vectorize', 'recraft_removeBackground', 'recraft_clarityUpscale', 'recraft_generativeUpscale', 'recraft_styles'],
};

// The smallest PNG there is (1×1), and a tiny WAV header: the gateway forwards them, it does not decode them.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const WAV = Buffer.from('UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=', 'base64');
const png: FilePart = { file: 'a.png', type: 'image/png', data: PNG };
const wav: FilePart = { file: 'a.wav', type: 'audio/wav', data: WAV };
const dataUrl = `data:image/png;base64,${PNG.toString('base64')}`;

const messages = [{ role: 'user', content: 'hello' }];
const contents = [{ role: 'user', parts: [{ text: 'hello' }] }];

/** A door with a stream mode is sent once without and once with it. */
const both = (url: string, body: Json, streamUrl = url): DoorRequest[] => [
  { what: 'non-stream', url, body },
  { what: 'stream', url: streamUrl, body: { ...body, stream: true }, stream: true },
];

/** Gemini's actions on one model path (`/v1beta/models/{model}` and its siblings). */
function gemini(base: string): DoorRequest[] {
  const m = `${base}/gemini-sweep`;
  return [
    { what: 'generateContent', url: `${m}:generateContent`, body: { contents } },
    { what: 'streamGenerateContent', url: `${m}:streamGenerateContent?alt=sse`, body: { contents }, stream: true },
    { what: 'embedContent', url: `${m}:embedContent`, body: { content: { parts: [{ text: 'hello' }] } } },
    { what: 'countTokens', url: `${m}:countTokens`, body: { contents }, local: true },
  ];
}

const claude = (path: string) => both(path, { model: 'claude-sweep', max_tokens: 16, messages });

/** Exact paths of the model doors. */
const EXACT: Record<string, () => DoorRequest[]> = {
  'POST /v1/chat/completions': () => both('/v1/chat/completions', { model: 'sweep-model', messages, max_tokens: 16 }),
  'POST /v1/completions': () => both('/v1/completions', { model: 'sweep-model', prompt: 'hello', max_tokens: 16 }),
  'POST /v1/embeddings': () => [{ what: 'embeddings', url: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'hello' } }],
  'POST /v1/moderations': () => [{ what: 'moderations', url: '/v1/moderations', body: { model: 'text-moderation-latest', input: 'hello' } }],
  'POST /v1/rerank': () => [{ what: 'rerank', url: '/v1/rerank', body: { model: 'sweep-rerank', query: 'hello', documents: ['a', 'b'] } }],
  'POST /v1/images/generations': () => [{ what: 'generations', url: '/v1/images/generations', body: { model: 'dall-e-3', prompt: 'a cat' } }],
  'POST /v1/images/edits': () => [{ what: 'multipart edit', url: '/v1/images/edits', multipart: { model: 'dall-e-2', prompt: 'a cat', image: png } }],
  'POST /v1/images/variations': () => [{ what: 'multipart variation', url: '/v1/images/variations', multipart: { model: 'dall-e-2', image: png } }],
  'POST /v1/audio/speech': () => [{ what: 'speech', url: '/v1/audio/speech', body: { model: 'tts-1', input: 'hello', voice: 'alloy' } }],
  'POST /v1/audio/transcriptions': () => [{ what: 'multipart file', url: '/v1/audio/transcriptions', multipart: { model: 'whisper-1', file: wav } }],
  'POST /v1/audio/translations': () => [{ what: 'multipart file', url: '/v1/audio/translations', multipart: { model: 'whisper-1', file: wav } }],
  'POST /v1/responses': () => both('/v1/responses', { model: 'sweep-model', input: 'hello' }),
  'POST /v1/responses/compact': () => [{ what: 'compact', url: '/v1/responses/compact', body: { model: 'sweep-model', input: 'hello' } }],
  'POST /v1/responses/input_tokens': () => [{ what: 'input tokens', url: '/v1/responses/input_tokens', body: { model: 'sweep-model', input: 'hello' } }],
  'POST /v1/messages': () => claude('/v1/messages'),
  'POST /claude/v1/messages': () => claude('/claude/v1/messages'),
  'POST /v1/messages/count_tokens': () => [{ what: 'count tokens', url: '/v1/messages/count_tokens', body: { model: 'claude-sweep', messages } }],
  'POST /claude/v1/messages/count_tokens': () => [{ what: 'count tokens', url: '/claude/v1/messages/count_tokens', body: { model: 'claude-sweep', messages } }],
  'POST /v1/messages/batches': () => [{ what: 'batch create', url: '/v1/messages/batches', body: { requests: [{ custom_id: 'sweep', params: { model: 'claude-sweep', max_tokens: 16, messages } }] } }],
  'POST /claude/v1/messages/batches': () => [{ what: 'batch create', url: '/claude/v1/messages/batches', body: { requests: [{ custom_id: 'sweep', params: { model: 'claude-sweep', max_tokens: 16, messages } }] } }],
  'POST /v1beta/interactions': () => both('/v1beta/interactions', { model: 'gemini-sweep', input: 'hello' }),
  'POST /v1/interactions': () => both('/v1/interactions', { model: 'gemini-sweep', input: 'hello' }),
  'POST /v1beta/models/{model}': () => gemini('/v1beta/models'),
  'POST /v1/models/{model}': () => gemini('/v1/models'),
  'POST /gemini/{version}/models/{model}': () => [...gemini('/gemini/v1beta/models'), ...gemini('/gemini/v1/models')],
  'POST /v1/videos': () => [{ what: 'create', url: '/v1/videos', body: { model: 'sora-2', prompt: 'a cat' } }],
  'POST /kling/v1/{class}/{action}': () => [
    { what: 'text2video', url: '/kling/v1/videos/text2video', body: { prompt: 'a cat' } },
    { what: 'image2video', url: '/kling/v1/videos/image2video', body: { image: dataUrl } },
  ],
  'POST /suno/submit/{action}': () => [
    { what: 'music', url: '/suno/submit/music', body: { prompt: 'a song', mv: 'chirp-v3-5' } },
    { what: 'lyrics', url: '/suno/submit/lyrics', body: { prompt: 'a song' } },
  ],
  'POST /recraftAI/v1/images/generations': () => [{ what: 'generations', url: '/recraftAI/v1/images/generations', body: { model: 'recraftv3', prompt: 'a cat' } }],
};

/** Midjourney's doors, with or without the `/{mode}` prefix. */
function midjourney(o: { method: string; path: string }): DoorRequest[] | undefined {
  const m = /^(\/\{mode\})?\/mj\/(submit\/\{kind\}|insight-face\/swap)$/.exec(o.path);
  if (!m || o.method !== 'POST') return undefined;
  const prefix = m[1] ? '/mj-relax' : '';
  if (m[2] === 'insight-face/swap') return [{ what: 'swap face', url: `${prefix}/mj/insight-face/swap`, body: { sourceBase64: dataUrl, targetBase64: dataUrl } }];
  return [{ what: 'imagine', url: `${prefix}/mj/submit/imagine`, body: { prompt: 'a cat' } }];
}

/** The minimal valid requests of a relay operation; none for a door that has no upstream to reach. */
export function doorRequests(o: { method: string; path: string }): DoorRequest[] {
  const exact = EXACT[`${o.method} ${o.path}`];
  if (exact) return exact();
  const mj = midjourney(o);
  if (mj) return mj;
  const tool = /^\/recraftAI\/v1\/(images\/\w+|styles)$/.exec(o.path);
  if (tool && o.method === 'POST') return [{ what: 'multipart tool', url: o.path, multipart: { file: png, image: png, style: 'digital_illustration' } }];
  // The pass-through doors: forwarded as they are to the pinned channel.
  const through = /^\/v1\/(files|fine_tuning|assistants|threads|batches|vector_stores)(\/\{path\})?$|^DELETE \/v1\/models\/\{model\}$/.exec(o.path) ?? /^DELETE \/v1\/models\/\{model\}$/.exec(`${o.method} ${o.path}`);
  if (through) {
    const url = o.path.replace(/\{(path|model)\}/, 'sweep');
    const body = ['GET', 'DELETE'].includes(o.method) ? undefined : { name: 'sweep' };
    return [{ what: 'pass-through', url, body, pinned: true }];
  }
  return [];
}

/** A multipart/form-data body and its content type. */
export function multipartBody(fields: Fields): { payload: Buffer; contentType: string } {
  const boundary = `sweep${Date.now().toString(36)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const head = typeof value === 'string'
      ? `content-disposition: form-data; name="${name}"\r\n\r\n`
      : `content-disposition: form-data; name="${name}"; filename="${value.file}"\r\ncontent-type: ${value.type}\r\n\r\n`;
    parts.push(Buffer.from(`--${boundary}\r\n${head}`), typeof value === 'string' ? Buffer.from(value) : value.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
