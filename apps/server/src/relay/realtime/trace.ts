import type { IncomingMessage } from 'node:http';
import type { DoorSpan, RelayTracer } from '../../telemetry/tracing.js';
import { providerName } from '../../telemetry/tracing.js';
import { toHubError } from '../../http/errors.js';
import type { Usage } from '../providers/types.js';
import type { RoutedChannel } from '../pipeline/flow/attempt.js';

/**
 * The spans of one Realtime session (made only while tracing is on): the session's SERVER span
 * from the handshake to the close, with the session's tokens, and one span per response under it
 * from `response.created` to `response.done`, with that response's tokens.
 */
export class RealtimeTrace {
  private readonly session: DoorSpan;
  private readonly responses = new Map<string, DoorSpan>();
  constructor(
    tracer: RelayTracer,
    req: IncomingMessage,
    private readonly model: string,
    startedAt: number,
  ) {
    this.session = tracer.span({
      name: `realtime ${this.model}`,
      startedAt,
      headers: req.headers,
      attributes: { 'gen_ai.operation.name': 'realtime', 'gen_ai.request.model': this.model || undefined, 'http.route': '/v1/realtime' },
    });
  }

  /** The handshake was refused (the client got this error as an HTTP answer). */
  refused(error: unknown): void {
    const hub = toHubError(error);
    this.session.set({ 'http.response.status_code': hub.status, 'one-hub.refused': true });
    this.session.fail(hub);
    this.session.end();
  }

  /** The upstream socket is open on this channel. */
  opened(route: RoutedChannel): void {
    this.session.set({
      'gen_ai.provider.name': providerName(route.adapter.name, route.row.type),
      'gen_ai.response.model': route.upstreamModel,
      'one-hub.channel.id': route.row.id,
    });
  }

  /** `response.created`. */
  started(id: string): void {
    if (this.responses.has(id)) return;
    this.responses.set(id, this.session.child({ name: `response ${this.model}`, kind: 'internal', attributes: { 'gen_ai.operation.name': 'realtime_response', 'gen_ai.response.id': id } }));
  }

  /** `response.done`, with the response's usage when upstream gave it. */
  done(id: string | undefined, usage: Usage | undefined): void {
    const span = id ? this.responses.get(id) : undefined;
    if (!span) return;
    this.responses.delete(id!);
    if (usage) span.usage(usage);
    span.end();
  }

  /** The session closed; `usage` is the whole session's. A response still running ends with it, cut. */
  closed(code: number, reason: string, usage: Usage): void {
    for (const span of this.responses.values()) {
      span.fail({ code: 'session_closed' });
      span.end();
    }
    this.responses.clear();
    this.session.usage(usage);
    this.session.set({ 'one-hub.close.code': code });
    // 1011: an error on either socket ended the session.
    if (code === 1011) this.session.fail({ code: reason.replace(/ /g, '_') });
    this.session.end();
  }
}
