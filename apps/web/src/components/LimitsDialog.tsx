import { useEffect, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showError, showSuccess } from '../lib/toast';

interface Props<T, S> {
  open: boolean;
  title: string;
  /** `<testId>-dialog` and `<testId>-submit`. */
  testId: string;
  /** Identifies what is loaded (the query key); the dialog loads afresh for each. */
  queryKey: unknown[];
  load: () => Promise<T>;
  save: (state: S) => Promise<void>;
  /** The editable state from what was loaded (or empty before it is). */
  toState: (loaded?: T) => S;
  invalid: (state: S) => boolean;
  children: (state: S, setState: Dispatch<SetStateAction<S>>) => ReactNode;
  onClose: () => void;
}

/** The frame every limits dialog shares: load, spinner or error, the fields, then save with a toast. */
export default function LimitsDialog<T, S>({ open, title, testId, queryKey, load, save, toState, invalid, children, onClose }: Props<T, S>) {
  const { t } = useTranslation();
  const loaded = useQuery({ queryKey, queryFn: load, enabled: open, retry: false, gcTime: 0 });
  const [state, setState] = useState<S>(() => toState());
  const [saving, setSaving] = useState(false);
  // toState is a pure mapping: re-run it when new data arrives only.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setState(toState(loaded.data)), [loaded.data]);
  const bad = invalid(state);

  const submit = async () => {
    if (bad) return;
    setSaving(true);
    try {
      await save(state);
      showSuccess(t('common:limits.saved'));
      onClose();
    } catch (e) {
      showError(e);
    }
    setSaving(false);
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid={`${testId}-dialog`}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        {loaded.isLoading ? (
          <Stack sx={{ alignItems: 'center', py: 4 }}>
            <CircularProgress />
          </Stack>
        ) : loaded.error ? (
          <Alert severity="error">{loaded.error.message}</Alert>
        ) : (
          children(state, setState)
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={saving || !loaded.data || bad} data-testid={`${testId}-submit`}>
          {t('common:common.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
