import type { AppContext } from '../../../app-context.js';
import { EVENTS } from '../../../cache/events.js';
import { listModelInfo } from '../../../db/repos/model-info.js';

/**
 * The most output tokens a model can produce in one answer, by name prefix, longest first
 * (the providers' published limits). A request without its own cap is held and bounded by
 * this; model info's `max_tokens` overrides it and `DefaultMaxOutputTokens` covers the rest.
 */
const KNOWN: Array<[prefix: string, tokens: number]> = [
  ['gpt-5', 128_000],
  ['gpt-4.1', 32_768],
  ['gpt-4o', 16_384],
  ['chatgpt-4o', 16_384],
  ['gpt-4-turbo', 4_096],
  ['gpt-4', 8_192],
  ['gpt-3.5', 4_096],
  ['o1-mini', 65_536],
  ['o1', 100_000],
  ['o3', 100_000],
  ['o4', 100_000],
  ['claude-3-5', 8_192],
  ['claude-3-7', 64_000],
  ['claude-3', 4_096],
  ['claude-opus-4-5', 64_000],
  ['claude-opus-4', 32_000],
  ['claude-sonnet-4', 64_000],
  ['claude-haiku-4', 64_000],
  ['gemini-2.5', 65_536],
  ['gemini-3', 65_536],
  ['gemini-2.0', 8_192],
  ['gemini-1.5', 8_192],
  ['deepseek-reasoner', 64_000],
  ['deepseek-chat', 8_192],
].sort((a, b) => (b[0] as string).length - (a[0] as string).length) as Array<[string, number]>;

export function knownMaxOutput(model: string): number | undefined {
  const name = model.toLowerCase();
  return KNOWN.find(([prefix]) => name.startsWith(prefix))?.[1];
}

/** Per-model output limits: model info rows first, then the known table, then the option. */
export class OutputLimits {
  private fromInfo = new Map<string, number>();
  /** knownMaxOutput by model name (the table is fixed; names repeat on every request). */
  private readonly known = new Map<string, number | null>();

  constructor(private readonly ctx: AppContext) {
    ctx.store.subscribe(EVENTS.prices, () => void this.load().catch((e) => ctx.log.warn({ err: e }, 'model info reload failed')));
  }

  async load(): Promise<void> {
    const rows = await listModelInfo(this.ctx.db);
    this.fromInfo = new Map(rows.filter((r) => Number(r.max_tokens) > 0).map((r) => [r.model, Number(r.max_tokens)]));
  }

  of(model: string): number {
    return this.fromInfo.get(model) ?? this.knownOf(model) ?? Math.max(1, this.ctx.options.get('DefaultMaxOutputTokens'));
  }

  private knownOf(model: string): number | null {
    let tokens = this.known.get(model);
    if (tokens === undefined) {
      if (this.known.size >= 10_000) this.known.clear(); // names come from callers: bounded
      this.known.set(model, (tokens = knownMaxOutput(model) ?? null));
    }
    return tokens;
  }
}
