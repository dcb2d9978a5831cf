import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HubError } from '../common/errors.js';

/** Turns any thrown value into a HubError with a status a client can act on. */
export function toHubError(error: unknown): HubError {
  if (error instanceof HubError) return error;
  const fe = error as FastifyError;
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode < 500) {
    const message =
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fe instanceof SyntaxError
        ? `invalid JSON body: ${fe.message}`
        : fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'request body is too large'
          : fe.message;
    return new HubError(fe.statusCode, message, { code: fe.code ?? null });
  }
  return new HubError(500, 'internal server error', { code: 'internal_error' });
}

/** Console scope: every failure is the `{success:false, message}` envelope. */
export function consoleErrorHandler(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  const hub = toHubError(error);
  if (hub.status >= 500) req.log.error({ err: error }, 'console request failed');
  const extra = hub.data === undefined ? {} : { code: hub.code, data: hub.data };
  return reply.status(hub.status).send({ success: false, message: hub.message, ...extra });
}

/** OpenAI-shaped error body, used by /v1 and for unknown paths. */
export function openAIErrorBody(hub: HubError) {
  return { error: { message: hub.message, type: hub.type, param: null, code: hub.code } };
}
