import { apiErrorText, type ApiErrorArgs, type ApiErrorCode, type ApiFailure, type Envelope } from '@one-hub/contract';

export function ok<T>(data?: T, message = ''): Envelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}

/** A failure answered with status 200 (as the original does on some routes): the listed code's text and its arguments. */
export function failure(code: ApiErrorCode, args?: ApiErrorArgs): ApiFailure {
  return { success: false, message: apiErrorText(code, args), code, ...(args ? { args } : {}) };
}
