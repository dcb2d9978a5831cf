import { useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { showError } from '../lib/toast';

export interface CodeDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  codeLabel: string;
  /** Called with the trimmed code; a thrown error is shown as a toast. */
  onSubmit: (code: string) => Promise<unknown> | unknown;
  /** Above the code field: a QR code, a hint, other fields or buttons. */
  children?: ReactNode;
  /** Below the code field (a Turnstile challenge). */
  footer?: ReactNode;
  submitLabel?: string;
  /** Submit stays disabled until the code is this long (none: the caller checks it). */
  minLength?: number;
  /** No code field and no submit button (a passkey-only confirmation). */
  codeHidden?: boolean;
  /** The caller is busy elsewhere (sending a code): submit waits. */
  busy?: boolean;
  autoComplete?: string;
  codeTestId?: string;
  submitTestId?: string;
}

/** The frame every "enter the code we gave you" dialog shares: title, content, one code field, cancel and submit. */
export function CodeDialog(props: CodeDialogProps) {
  const { open, onClose, title, codeLabel, onSubmit, children, footer, submitLabel, minLength = 0, codeHidden, autoComplete } = props;
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = !busy && !props.busy && code.trim().length >= minLength;
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit(code.trim());
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {children}
        {!codeHidden && (
          <TextField
            label={codeLabel}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && ready && void submit()}
            autoComplete={autoComplete}
            slotProps={{ htmlInput: { maxLength: 64, 'data-testid': props.codeTestId } }}
            sx={{ mt: 1 }}
            fullWidth
            autoFocus
          />
        )}
        {footer}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        {!codeHidden && (
          <Button variant="contained" disabled={!ready} onClick={() => void submit()} data-testid={props.submitTestId}>
            {submitLabel ?? t('common.submit')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
