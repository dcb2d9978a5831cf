import type { FastifyRequest } from 'fastify';
import { CHANNEL_TYPE_BY_ID } from '@one-hub/contract';
import { HubError } from '../../../common/errors.js';
import type { RelayState } from '../relay-state.js';
import { authenticate } from '../flow/caller.js';

const CREATED = 1677649963;

/** Models the caller's token may use: its group's models, narrowed by the token's model whitelist. */
export async function listModels(state: RelayState, req: FastifyRequest, reader: 'openai' | 'claude' | 'gemini' = 'openai') {
  const caller = await authenticate(state.ctx, state.callers, req, reader);
  const group = caller.token.group || caller.token.backup_group || caller.user.group;
  let names = state.selector.index.models(group);
  if (caller.token.backup_group && caller.token.backup_group !== group) {
    names = [...new Set([...names, ...state.selector.index.models(caller.token.backup_group)])].sort();
  }
  const limit = caller.setting.limits.limit_model_setting;
  if (limit.enabled) names = names.filter((n) => limit.models.includes(n));
  return names.map((id) => ({ id, object: 'model' as const, created: CREATED, owned_by: ownerOf(state, id) }));
}

function ownerOf(state: RelayState, model: string): string {
  const type = state.prices.find(model)?.channelType;
  return (type !== undefined && CHANNEL_TYPE_BY_ID.get(type)?.name) || 'One Hub';
}

export async function describeModel(state: RelayState, req: FastifyRequest, model: string) {
  const found = (await listModels(state, req)).find((m) => m.id === model);
  if (!found) throw new HubError(404, `The model '${model}' does not exist`, { code: 'model_not_found' });
  return found;
}
