import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, writePaced, type Received } from './fake-http.js';
import { googleErrorBody, type GeminiBehaviour } from './gemini-answer.js';

/** One interaction as the fake keeps it: per API key (Google keeps them per project). */
interface Kept {
  key: string;
  interaction: Record<string, any>;
  /** Words of every turn so far, the model's included: the context a follow-up is billed for. */
  context: number;
  background?: boolean;
  /** A background interaction still running: what it ends as, and how many more reads find it running. */
  running?: { final: Record<string, any>; reads: number };
}

export const INTERACTIONS_PATH = /^\/(v1|v1beta|v1alpha)\/interactions(?:\/([^/]+?))?(\/cancel)?$/;

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The words of an `input`: a string, content blocks, or turns of them. */
function inputWords(input: unknown): number {
  if (typeof input === 'string') return words(input);
  if (Array.isArray(input)) return input.reduce((n: number, item) => n + inputWords(item), 0);
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    if (typeof o.text === 'string') return words(o.text);
    return inputWords(o.content);
  }
  return 0;
}

/**
 * Gemini's Interactions API, kept in memory as the real one keeps it: ids (long, `v1_…`),
 * `previous_interaction_id` that must name an interaction of the same key, `store: false`
 * keeping nothing, retrieval, deletion, cancel (background interactions only), and streaming
 * (`stream: true`: lifecycle and step events, then `[DONE]`), background interactions (`background:
 * true`, and agents, which must run in the background: answered `in_progress` without usage, then
 * completed with its usage after `backgroundReads` reads; a cancel while running ends it `cancelled`
 * without usage). Usage counts words: input plus
 * the kept context of the previous turns, output, and thoughts when the behaviour thinks.
 */
export class FakeInteractions {
  private kept = new Map<string, Kept>();

  /** The interactions kept for a key, oldest first. */
  of(key: string): Record<string, any>[] {
    return [...this.kept.values()].filter((k) => k.key === key).map((k) => k.interaction);
  }

  async handle(req: Received, res: ServerResponse, b: GeminiBehaviour): Promise<void> {
    const match = INTERACTIONS_PATH.exec(req.path)!;
    const [, , id, cancel] = match;
    const notFound = () => sendJson(res, googleErrorBody(404, `Interaction ${id} not found.`), 404);
    if (!id) {
      if (req.method !== 'POST') return sendJson(res, googleErrorBody(404, `Not found: ${req.method} ${req.path}`), 404);
      return this.create(req, res, b);
    }
    const kept = this.kept.get(id);
    if (!kept || kept.key !== req.key) return notFound();
    if (cancel) {
      if (req.method !== 'POST') return notFound();
      if (!kept.background) return sendJson(res, googleErrorBody(400, 'Only background interactions can be cancelled.'), 400);
      if (kept.running) {
        kept.running = undefined;
        kept.interaction = { ...kept.interaction, status: 'cancelled', updated: new Date().toISOString() };
      }
      return sendJson(res, kept.interaction);
    }
    if (req.method === 'DELETE') {
      this.kept.delete(id);
      return sendJson(res, {});
    }
    if (req.method !== 'GET') return notFound();
    if (kept.running && --kept.running.reads < 0) {
      kept.interaction = kept.running.final;
      kept.running = undefined;
    }
    if (req.query.get('stream') === 'true') return this.stream(res, kept.interaction, b, false);
    return sendJson(res, kept.interaction);
  }

  private async create(req: Received, res: ServerResponse, b: GeminiBehaviour) {
    const body = req.body;
    if (!body || typeof body !== 'object') return sendJson(res, googleErrorBody(400, 'Invalid JSON payload received.'), 400);
    const agent = body.model === undefined && typeof body.agent === 'string' && body.agent ? body.agent : undefined;
    if ((typeof body.model !== 'string' || !body.model) && !agent) return sendJson(res, googleErrorBody(400, 'model or agent is required.'), 400);
    if (agent && body.background !== true) return sendJson(res, googleErrorBody(400, 'Agent interactions require background=true.'), 400);
    const background = body.background === true;
    if (background && body.store === false) return sendJson(res, googleErrorBody(400, 'Background interactions require store=true.'), 400);
    if (body.input === undefined) return sendJson(res, googleErrorBody(400, 'input is required.'), 400);
    let context = 0;
    if (body.previous_interaction_id !== undefined) {
      const previous = this.kept.get(body.previous_interaction_id);
      // Another project's interaction is unknown here, exactly like a made-up id.
      if (!previous || previous.key !== req.key) return sendJson(res, googleErrorBody(404, `Interaction ${body.previous_interaction_id} not found.`), 404);
      context = previous.context;
    }
    let text = (b.content ?? 'Hello from the fake Gemini').split(' ');
    let status = 'completed';
    const max = body.generation_config?.max_output_tokens;
    if (typeof max === 'number' && text.length > max) {
      text = text.slice(0, max);
      status = 'incomplete';
    }
    const input = inputWords(body.input) + (typeof body.system_instruction === 'string' ? words(body.system_instruction) : 0);
    const thoughts = b.thought ? words(b.thought) : 0;
    const usage = {
      total_input_tokens: context + input,
      total_output_tokens: text.length,
      total_thought_tokens: thoughts,
      total_cached_tokens: b.cachedTokens ?? 0,
      total_tokens: context + input + text.length + thoughts,
      input_tokens_by_modality: [{ modality: 'text', tokens: context + input }],
    };
    const id = `v1_${randomBytes(48).toString('base64url')}`;
    const now = new Date().toISOString();
    const interaction: Record<string, any> = {
      id,
      object: 'interaction',
      ...(agent ? { agent } : { model: body.model }),
      status,
      created: now,
      updated: now,
      role: 'model',
      steps: [...(thoughts ? [{ type: 'thought', signature: 'fake-thought-signature' }] : []), { type: 'model_output', content: [{ type: 'text', text: text.join(' ') }] }],
      usage,
      ...(body.previous_interaction_id ? { previous_interaction_id: body.previous_interaction_id } : {}),
    };
    if (background) {
      // Running: no steps and no usage yet; the finished interaction is what later reads find.
      const running = { ...interaction, status: 'in_progress', steps: [], usage: undefined };
      this.kept.set(id, { key: req.key, interaction: running, context: context + input + text.length, background, running: { final: interaction, reads: b.backgroundReads ?? 1 } });
      return sendJson(res, running);
    }
    if (body.store !== false) this.kept.set(id, { key: req.key, interaction, context: context + input + text.length });
    if (body.stream === true) return this.stream(res, interaction, b, true);
    sendJson(res, interaction);
  }

  /** The stream of an interaction: created, in progress, the model's step word by word, completed, `[DONE]`. */
  private async stream(res: ServerResponse, interaction: Record<string, any>, b: GeminiBehaviour, fresh: boolean) {
    let n = 0;
    const event = (type: string, data: Record<string, unknown>, content = false) => ({ text: `event: ${type}\ndata: ${JSON.stringify({ ...data, event_type: type, event_id: `evt_${++n}` })}\n\n`, content });
    const head = { id: interaction.id, status: 'in_progress', object: 'interaction', model: interaction.model };
    const output = interaction.steps.at(-1).content[0].text.split(' ');
    const index = interaction.steps.length - 1;
    const pieces = [
      event('interaction.created', { interaction: fresh ? head : { ...head, status: interaction.status } }),
      event('interaction.status_update', { interaction_id: interaction.id, status: 'in_progress' }),
      event('step.start', { index, step: { type: 'model_output' } }),
      ...output.map((w: string, i: number) => event('step.delta', { index, delta: { type: 'text', text: i ? ` ${w}` : w } }, true)),
      event('step.stop', { index }),
      event('interaction.completed', { interaction: { ...head, status: interaction.status, updated: interaction.updated, usage: interaction.usage } }),
      { text: 'data: [DONE]\n\n', content: false },
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (await writePaced(res, pieces, b)) res.end();
  }
}
