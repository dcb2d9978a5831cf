import { enqueueSnackbar } from 'notistack';
import i18n from './i18n';
import { describeError, notifyServerMessage } from './error-handler';
import { toastOptions, type ToastVariant } from './toast-options';

function show(variant: ToastVariant, message: string, extra: Record<string, unknown> = {}) {
  const options = { ...toastOptions(variant, window.innerWidth), ...extra } as Parameters<typeof enqueueSnackbar>[1];
  enqueueSnackbar(message, options);
}

export const showSuccess = (message: string) => show('success', message);
export const showInfo = (message: string) => show('info', message);
export const showWarning = (message: string) => show('warning', message);
export const showNotice = (message: string) => show('notice', message);

/** The error handler (console-spec §8): maps the failure to its text and variant, then toasts it. */
export function showError(error: unknown): void {
  const { variant, text } = describeError(error, i18n.t);
  notifyServerMessage(error);
  show(variant, text);
}

/** Copies text; success toast, or a persistent toast holding the text to copy by hand. */
export async function copyText(text: string, label = ''): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('clipboard unavailable');
    await navigator.clipboard.writeText(text);
    showSuccess(i18n.t('common.copySuccess', { label }));
    return true;
  } catch {
    show('copy', i18n.t('common.copyFailed', { label }), { copyText: text });
    return false;
  }
}
