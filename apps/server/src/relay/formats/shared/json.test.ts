import { describe, expect, it } from 'vitest';
import { FormatError } from './errors.js';
import { mimeFromUrl, parseArguments, parseArgumentsLenient, parseDataUrl, stripSchemaKeys, textOf } from './json.js';
import { sseFrame, typedSseFrame } from './sse.js';

describe('shared helpers', () => {
  it.each([
    ['data:image/png;base64,AAAA', { mimeType: 'image/png', data: 'AAAA' }],
    ['data:application/pdf;name=a.pdf;base64,JVBE', { mimeType: 'application/pdf', data: 'JVBE' }],
    ['https://x.test/a.png', null],
    ['data:text/plain,hello', null],
  ])('parseDataUrl %s', (url, expected) => expect(parseDataUrl(url)).toEqual(expected));

  it.each([['https://a/b.PNG?x=1', 'image/png'], ['https://a/b.webp', 'image/webp'], ['https://a/b', 'image/jpeg'], ['https://a/doc.pdf', 'application/pdf']])('mimeFromUrl %s', (u, m) => expect(mimeFromUrl(u)).toBe(m));

  it('parseArguments: empty → {}, object kept, others rejected', () => {
    expect(parseArguments('', 'f')).toEqual({});
    expect(parseArguments('{"a":1}', 'f')).toEqual({ a: 1 });
    expect(() => parseArguments('[1]', 'f')).toThrow(FormatError);
    expect(() => parseArguments('{', 'f')).toThrow('f is not valid JSON');
    const w: string[] = [];
    expect(parseArgumentsLenient('{', 'g', w)).toEqual({});
    expect(w).toHaveLength(1);
  });

  it('stripSchemaKeys removes keywords at any depth but keeps property names', () => {
    const removed = new Set<string>();
    const out = stripSchemaKeys({
      $schema: 'x', type: 'object', additionalProperties: false,
      properties: { additionalProperties: { type: 'string' }, nested: { type: 'array', items: { type: 'object', additionalProperties: true, properties: {} } } },
      anyOf: [{ $schema: 'y', type: 'string' }],
    }, ['$schema', 'additionalProperties'], removed);
    expect(out).toEqual({
      type: 'object',
      properties: { additionalProperties: { type: 'string' }, nested: { type: 'array', items: { type: 'object', properties: {} } } },
      anyOf: [{ type: 'string' }],
    });
    expect([...removed].sort()).toEqual(['$schema', 'additionalProperties']);
  });

  it('textOf joins text parts', () => {
    expect(textOf([{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }])).toBe('ab');
    expect(textOf(null)).toBe('');
  });

  it('SSE frames', () => {
    expect(sseFrame({ a: 1 })).toBe('data: {"a":1}\n\n');
    expect(sseFrame('[DONE]')).toBe('data: [DONE]\n\n');
    expect(typedSseFrame({ type: 'message_stop' })).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });
});
