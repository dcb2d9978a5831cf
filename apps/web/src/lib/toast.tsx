import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, IconButton, Stack, useMediaQuery } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';

export type ToastVariant = 'success' | 'error' | 'warning' | 'info';

/** Auto-hide per variant (console-spec §9); `persist` keeps a toast until closed. */
export const TOAST_DURATION: Record<ToastVariant, number> = { error: 5000, warning: 10000, success: 1500, info: 3000 };
const MAX_VISIBLE = 3;

interface Toast {
  id: number;
  message: string;
  variant: ToastVariant;
}

type Enqueue = (message: string, variant?: ToastVariant, opts?: { persist?: boolean }) => void;
const ToastContext = createContext<Enqueue | null>(null);

/** At most three toasts; a fourth dismisses the oldest. Bottom-left on desktop, bottom-centre on phones. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const phone = useMediaQuery('(max-width:600px)');
  const close = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const enqueue = useCallback<Enqueue>(
    (message, variant = 'info', opts) => {
      const id = next.current++;
      setToasts((list) => [...list.filter((t) => t.message !== message), { id, message, variant }].slice(-MAX_VISIBLE));
      if (!opts?.persist) setTimeout(() => close(id), TOAST_DURATION[variant]);
    },
    [close],
  );
  const value = useMemo(() => enqueue, [enqueue]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <Stack
        spacing={1}
        role="status"
        sx={{ position: 'fixed', bottom: 16, zIndex: 2000, ...(phone ? { left: 16, right: 16 } : { left: 16, maxWidth: 420 }) }}
      >
        {toasts.map((t) => (
          <Alert
            key={t.id}
            severity={t.variant}
            variant="filled"
            action={
              <IconButton size="small" color="inherit" aria-label="close" onClick={() => close(t.id)}>
                <CloseIcon fontSize="small" />
              </IconButton>
            }
          >
            {t.message}
          </Alert>
        ))}
      </Stack>
    </ToastContext.Provider>
  );
}

export function useToast(): Enqueue {
  const enqueue = useContext(ToastContext);
  if (!enqueue) throw new Error('useToast outside ToastProvider');
  return enqueue;
}
