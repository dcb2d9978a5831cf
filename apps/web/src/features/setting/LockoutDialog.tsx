import { useCallback, useRef, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The red warning before password login is turned off (console-screens §3.6); `ask()` answers the choice. */
export function useLockoutConfirm() {
  const { t } = useTranslation('setting');
  const [open, setOpen] = useState(false);
  const answer = useRef<(ok: boolean) => void>(() => undefined);
  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        answer.current = resolve;
        setOpen(true);
      }),
    [],
  );
  const close = (ok: boolean) => {
    setOpen(false);
    answer.current(ok);
  };
  const dialog = (
    <Dialog open={open} onClose={() => close(false)} maxWidth="xs" fullWidth data-testid="lockout-dialog">
      <DialogTitle sx={{ color: 'error.main' }}>{t('lockout.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="error">{t('lockout.body')}</Alert>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => close(false)} color="inherit">
          {t('common.cancel', { ns: 'common' })}
        </Button>
        <Button onClick={() => close(true)} color="error" variant="contained">
          {t('lockout.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { ask, dialog };
}
