import type { HubError } from '../../common/errors.js';

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** Anthropic's error shape `{type:"error", error:{type, message}}`. */
export function anthropicErrorBody(hub: HubError, message: string) {
  const type = ANTHROPIC_TYPES[hub.status] ?? (hub.status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message } };
}

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'RESOURCE_EXHAUSTED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Google's error shape `{error:{code, message, status}}`. */
export function googleErrorBody(hub: HubError, message: string) {
  return { error: { code: hub.status, message, status: GOOGLE_STATUS[hub.status] ?? (hub.status >= 500 ? 'UNAVAILABLE' : 'FAILED_PRECONDITION') } };
}
