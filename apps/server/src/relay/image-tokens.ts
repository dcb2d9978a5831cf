/**
 * Image input tokens by each provider family's published rule, from the image's
 * own header when it is inline (data URL). Remote URLs are never fetched (SSRF,
 * latency): they count as a typical 1024×1024 image.
 */
export interface ImageSize {
  width: number;
  height: number;
}

export type ImageFamily = 'openai' | 'anthropic' | 'gemini';

const TYPICAL: ImageSize = { width: 1024, height: 1024 };
/** Enough of the file to find a JPEG frame header behind EXIF data. */
const HEADER_BYTES = 96 * 1024;

export function familyOf(model: string): ImageFamily {
  if (/claude/i.test(model)) return 'anthropic';
  if (/gemini|gemma/i.test(model)) return 'gemini';
  return 'openai';
}

function jpegSize(b: Buffer): ImageSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    const length = b.readUInt16BE(i + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

function webpSize(b: Buffer): ImageSize | null {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && b.length >= 30) return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8 ' && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return null;
}

/** Width and height from a PNG, JPEG, GIF or WebP header; null when unreadable. */
export function sniffImageSize(bytes: Buffer): ImageSize | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (bytes.length >= 16 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return webpSize(bytes);
  return null;
}

/** The size of an image given as a data URL (or bare base64); null for remote URLs. */
export function inlineImageSize(url: string): ImageSize | null {
  const comma = url.startsWith('data:') ? url.indexOf(',') : -1;
  if (url.startsWith('data:') && comma < 0) return null;
  if (!url.startsWith('data:') && /^https?:/i.test(url)) return null;
  const b64 = url.slice(comma + 1, comma + 1 + Math.ceil((HEADER_BYTES * 4) / 3));
  const size = sniffImageSize(Buffer.from(b64, 'base64'));
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function scaleToFit(s: ImageSize, maxW: number, maxH: number): ImageSize {
  const f = Math.min(1, maxW / s.width, maxH / s.height);
  return { width: Math.floor(s.width * f), height: Math.floor(s.height * f) };
}

/** OpenAI (GPT-4o class): 85 base + 170 per 512-px tile after fitting 2048² and a 768-px short side; low detail is 85. */
function openaiTokens(size: ImageSize, detail?: string): number {
  if (detail === 'low') return 85;
  let s = scaleToFit(size, 2048, 2048);
  const short = Math.min(s.width, s.height);
  if (short > 768) s = { width: Math.floor((s.width * 768) / short), height: Math.floor((s.height * 768) / short) };
  return 85 + 170 * Math.ceil(s.width / 512) * Math.ceil(s.height / 512);
}

/** Anthropic: width × height / 750 after fitting a 1568-px long edge (about 1600 at most). */
function anthropicTokens(size: ImageSize): number {
  const s = scaleToFit(size, 1568, 1568);
  return Math.min(Math.ceil((s.width * s.height) / 750), 1600);
}

/** Gemini: 258 for an image within 384×384, else 258 per 768×768 tile. */
function geminiTokens(size: ImageSize): number {
  if (size.width <= 384 && size.height <= 384) return 258;
  return 258 * Math.ceil(size.width / 768) * Math.ceil(size.height / 768);
}

/** Prompt tokens of one image for a model, from its URL (inline data is measured). */
export function imageTokens(model: string, url: string | undefined, detail?: string): number {
  const size = (url && inlineImageSize(url)) || TYPICAL;
  switch (familyOf(model)) {
    case 'anthropic':
      return anthropicTokens(size);
    case 'gemini':
      return geminiTokens(size);
    default:
      return openaiTokens(size, detail);
  }
}
