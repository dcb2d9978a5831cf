import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { genericApiError, isApiErrorCode, type ApiFailure } from '@one-hub/contract';
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
    const invalidJson = message.startsWith('invalid JSON body');
    return new HubError(fe.statusCode, message, { code: invalidJson ? 'invalid_json' : (fe.code ?? null) });
  }
  return new HubError(500, 'internal server error', { code: 'internal_error' });
}

/**
 * The console answer of a failure: the `{success:false, message}` envelope as before, with a listed
 * `code` beside it (a code the thrower set when it is listed, else the generic code of the status),
 * its `args` and the field errors of a refused body.
 */
export function consoleFailure(hub: HubError): ApiFailure {
  const code = isApiErrorCode(hub.code) ? hub.code : genericApiError(hub.status);
  return {
    success: false,
    message: hub.message,
    code,
    ...(hub.args && Object.keys(hub.args).length ? { args: hub.args } : {}),
    ...(hub.fields?.length ? { fields: hub.fields } : {}),
    ...(hub.data === undefined ? {} : { data: hub.data }),
  };
}

/** Console scope: every failure is the envelope of `consoleFailure`. */
export function consoleErrorHandler(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  const hub = toHubError(error);
  if (hub.status >= 500) req.log.error({ err: error }, 'console request failed');
  return reply.status(hub.status).send(consoleFailure(hub));
}

/** OpenAI-shaped error body, used by /v1 and for unknown paths. */
export function openAIErrorBody(hub: HubError) {
  return { error: { message: hub.message, type: hub.type, param: null, code: hub.code } };
}
