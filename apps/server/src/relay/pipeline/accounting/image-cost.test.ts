import { describe, expect, it } from 'vitest';
import { imageVirtualTokens } from './image-cost.js';

describe('imageVirtualTokens', () => {
  it.each([
    [{}, 1250], // dall-e-2 at its default 1024x1024
    [{ model: 'dall-e-2', size: '256x256' }, 1000],
    [{ model: 'dall-e-2', size: '512x512', n: 2 }, 2250],
    [{ model: 'dall-e-2', size: '1024x1024', n: '3' }, 3750], // multipart fields arrive as text
    [{ model: 'dall-e-3' }, 1000],
    [{ model: 'dall-e-3', size: '1792x1024' }, 2000],
    [{ model: 'dall-e-3', quality: 'hd' }, 2000],
    [{ model: 'dall-e-3', size: '1024x1792', quality: 'hd' }, 3000],
    [{ model: 'recraftv3', style: 'vector_illustration' }, 2000],
    [{ model: 'recraftv3', style: 'realistic_image' }, 1000],
    [{ model: 'gpt-image-1', size: '1024x1024', n: 2 }, 2000],
    [{ model: 'dall-e-2', n: 0 }, 1250], // a bad n counts as 1
    [{ model: 'dall-e-2', n: -4 }, 1250],
    [{ model: 'dall-e-3', size: '999x999' }, 1000],
  ])('%j costs %i', (fields, want) => {
    expect(imageVirtualTokens(fields)).toBe(want);
  });
});
