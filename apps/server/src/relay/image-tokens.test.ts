import { describe, expect, it } from 'vitest';
import { imageTokens, inlineImageSize, sniffImageSize } from './image-tokens.js';

/** A PNG header of the given size (IHDR only: enough for sniffing). */
function png(width: number, height: number): string {
  const b = Buffer.alloc(33);
  b.writeUInt32BE(0x89504e47, 0);
  b.writeUInt32BE(0x0d0a1a0a, 4);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return `data:image/png;base64,${b.toString('base64')}`;
}

function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

describe('image sizes', () => {
  it('reads PNG, JPEG (behind an APP0 segment), GIF and WebP headers', () => {
    expect(inlineImageSize(png(640, 480))).toEqual({ width: 640, height: 480 });
    expect(sniffImageSize(jpeg(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    const gif = Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1');
    expect(sniffImageSize(gif)).toEqual({ width: 800, height: 600 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1023, 24, 3);
    webp.writeUIntLE(767, 27, 3);
    expect(sniffImageSize(webp)).toEqual({ width: 1024, height: 768 });
  });

  it('never fetches remote images and rejects garbage', () => {
    expect(inlineImageSize('https://example.com/cat.png')).toBeNull();
    expect(inlineImageSize('data:image/png;base64,bm90IGFuIGltYWdl')).toBeNull();
  });
});

describe('image tokens by family', () => {
  it.each([
    ['gpt-4o', png(1024, 1024), undefined, 765],
    ['gpt-4o', png(2048, 4096), undefined, 1105],
    ['gpt-4o', png(512, 512), undefined, 255],
    ['gpt-4o', png(4000, 4000), 'low', 85],
    ['gpt-4o', 'https://example.com/a.png', undefined, 765],
    ['claude-sonnet-4-5', png(1000, 1000), undefined, 1334],
    ['claude-sonnet-4-5', png(200, 200), undefined, 54],
    ['claude-sonnet-4-5', png(4000, 3000), undefined, 1600],
    ['gemini-2.5-flash', png(300, 300), undefined, 258],
    ['gemini-2.5-flash', png(1024, 1024), undefined, 1032],
  ])('%s %#', (model, url, detail, expected) => {
    expect(imageTokens(model, url, detail)).toBe(expected);
  });
});
