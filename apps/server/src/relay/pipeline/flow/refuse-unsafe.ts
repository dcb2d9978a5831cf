import type { FastifyRequest } from 'fastify';
import { LOG_TYPE } from '@one-hub/contract';
import type { RelayState } from '../relay-state.js';
import { requestLogFields, type RequestFacts } from '../accounting/settle.js';
import { SAFETY_CODE, SAFETY_MESSAGE, safetyRefusal } from './content-safety.js';

export interface Inspected {
  /** The door's path as log rows name it (`/v1/chat/completions`, `/v1beta`, …). */
  door: string;
  model: string;
  /** The JSON body, whose human-written strings are checked. */
  body: unknown;
  /** Text that is not in a JSON body (multipart prompt fields). */
  texts?: readonly string[];
}

/**
 * Throws the refusal when EnableSafe is on and the request carries a forbidden word, after
 * logging it: an error row for the console (without the word, which the caller can read in
 * their own log) and the word itself in the server log, for administrators.
 */
export function refuseUnsafe(state: RelayState, req: FastifyRequest, facts: RequestFacts, what: Inspected): void {
  const word = state.safety.find(what.body, what.texts);
  if (word === undefined) return;
  req.log.warn({ userId: facts.caller.user.id, tokenId: facts.caller.token.id, door: what.door, word }, 'content safety: request refused');
  if (state.ctx.options.get('LogErrorEnabled')) {
    state.recorder.log({
      type: LOG_TYPE.error,
      ...requestLogFields(facts, req.id, req.ip),
      model_name: what.model,
      content: `400 ${SAFETY_MESSAGE}`,
      metadata: JSON.stringify({ door: what.door, status: 400, code: SAFETY_CODE, msg: { key: 'unsafe_content', args: {} } }),
    });
  }
  throw safetyRefusal();
}
