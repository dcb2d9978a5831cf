import type { Envelope } from '@one-hub/contract';

export function ok<T>(data?: T, message = ''): Envelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}

export function fail(message: string): Envelope<never> {
  return { success: false, message };
}
