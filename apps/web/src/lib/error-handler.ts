import type { TFunction } from 'i18next';
import { ApiError } from './api';

export interface ErrorToast {
  variant: 'error' | 'info';
  text: string;
}

type Listener = (message: string) => void;
const listeners = new Set<Listener>();
/** The global error notifier: receives every server `data.message` shown as an error. */
export function onServerErrorMessage(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Console-spec §8: what the error handler says about a failure. Pure. */
export function describeError(error: unknown, t: TFunction): ErrorToast {
  if (error instanceof ApiError) {
    if (error.status === 429) return { variant: 'error', text: t('error.tooManyRequests') };
    if (error.status === 500) return { variant: 'error', text: t('error.serverError') };
    if (error.status === 405) return { variant: 'info', text: t('error.demoSite') };
    if (error.status === 0) return { variant: 'error', text: t('error.prefix') + t('common.unableServer') };
    return { variant: 'error', text: t('error.prefix') + (error.serverMessage ?? error.message) };
  }
  if (error instanceof Error) return { variant: 'error', text: t('error.prefix') + error.message };
  return { variant: 'error', text: t('error.prefix') + (typeof error === 'string' ? error : JSON.stringify(error)) };
}

export function notifyServerMessage(error: unknown): void {
  if (error instanceof ApiError && error.serverMessage) for (const l of listeners) l(error.serverMessage);
}
