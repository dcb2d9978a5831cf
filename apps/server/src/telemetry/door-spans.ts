import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { DoorSpan, RelayTracer, SpanAttributes } from './tracing.js';

/**
 * Spans of the HTTP doors that are not one routed model request: a request refused before
 * routing (a bad key, a malformed body, a limit), a task or batch call, an MCP tool call. A door
 * opens its span at the shared entry it already passes through (taskFacts, the MCP tools/call);
 * the span ends when the response is sent, with its status. Installed only while tracing is on:
 * off, no hook exists and a door's `openDoorSpan` is one property read.
 */

/** The request's door span, or `true` when handleRelay traces the request itself. */
const open = new WeakMap<IncomingMessage, DoorSpan | true>();
/** The error a request failed with (onError runs before onResponse). */
const failures = new WeakMap<IncomingMessage, unknown>();

/** The model a refused body named (a model name is no secret); anything else is left out. */
function modelOf(body: unknown): string | undefined {
  const model = body && typeof body === 'object' && !Buffer.isBuffer(body) ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' && model.length <= 200 ? model : undefined;
}

/** Arrival of the request: the reply counts its time from onRequest. */
const arrivedAt = (reply: FastifyReply) => Date.now() - reply.elapsedTime;

function ended(tracer: RelayTracer, req: FastifyRequest, reply: FastifyReply): void {
  const known = open.get(req.raw);
  if (known === true) return;
  const status = reply.statusCode;
  const error = failures.get(req.raw) ?? (status >= 400 ? { status } : undefined);
  if (known) {
    known.set({ 'http.response.status_code': status });
    if (error !== undefined) known.fail(error);
    known.end();
    return;
  }
  // Only a refusal of a door's route makes a span of its own (not a 404 of no route, not a plain read).
  if (status < 400 || !req.routeOptions.url) return;
  const span = tracer.span({
    name: `${req.method} ${req.routeOptions.url}`,
    startedAt: arrivedAt(reply),
    headers: req.headers,
    attributes: {
      'http.request.method': req.method,
      'http.route': req.routeOptions.url,
      'http.response.status_code': status,
      'gen_ai.request.model': modelOf(req.body),
      'one-hub.refused': true,
    },
  });
  span.fail(error);
  span.end();
}

/** Hooks of the door routes: installed in the scope that holds the doors, so the console is not traced. */
export function traceDoors(app: FastifyInstance, tracer: RelayTracer): void {
  app.addHook('onError', (req, _reply, error, done) => {
    failures.set(req.raw, error);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    ended(tracer, req, reply);
    done();
  });
}

/** handleRelay traces this request itself (called only while tracing is on). */
export function tracedByRelay(req: FastifyRequest): void {
  open.set(req.raw, true);
}

/**
 * The span of this request at a door's shared entry (undefined when tracing is off); opened once,
 * later calls add their attributes to it. Ends with the response.
 */
export function openDoorSpan(ctx: AppContext, req: FastifyRequest, name: string, attributes: SpanAttributes): DoorSpan | undefined {
  const tracer = ctx.tracer;
  if (!tracer) return undefined;
  const known = open.get(req.raw);
  if (known === true) return undefined;
  if (known) {
    known.set(attributes);
    return known;
  }
  const span = tracer.span({ name, headers: req.headers, attributes: { 'http.request.method': req.method, 'http.route': req.routeOptions.url, ...attributes } });
  open.set(req.raw, span);
  return span;
}
