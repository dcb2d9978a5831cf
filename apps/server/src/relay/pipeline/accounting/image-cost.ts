/**
 * "Virtual tokens" of an image request (relay.md §4.4): 1000 × n × size factor.
 * DALL·E sizes and HD quality cost more; Recraft vector illustrations double.
 */
export function imageVirtualTokens(fields: { model?: unknown; n?: unknown; size?: unknown; quality?: unknown; style?: unknown }): number {
  const model = typeof fields.model === 'string' && fields.model ? fields.model : 'dall-e-2';
  const nValue = typeof fields.n === 'string' ? Number(fields.n) : fields.n;
  const n = typeof nValue === 'number' && Number.isInteger(nValue) && nValue > 0 ? nValue : 1;
  const dalle = model.startsWith('dall-e');
  const size = typeof fields.size === 'string' && fields.size ? fields.size : dalle ? '1024x1024' : '';
  const quality = typeof fields.quality === 'string' && fields.quality ? fields.quality : dalle ? 'standard' : '';
  return Math.ceil(1000 * n * sizeFactor(model, size, quality, fields.style));
}

function sizeFactor(model: string, size: string, quality: string, style: unknown): number {
  if (model === 'dall-e-2') return ({ '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 } as Record<string, number>)[size] ?? 1;
  if (model === 'dall-e-3') {
    const base = ({ '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 } as Record<string, number>)[size] ?? 1;
    if (quality !== 'hd') return base;
    return base * (size === '1024x1024' ? 2 : 1.5);
  }
  if ((model === 'recraft20b' || model === 'recraftv3') && style === 'vector_illustration') return 2;
  return 1;
}
