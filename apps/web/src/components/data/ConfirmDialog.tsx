import type { ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** Defaults to "execute {title}?". */
  body?: ReactNode;
  confirmText?: string;
  /** Red confirm button (deletes). */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** The generic confirm (console-screens §0): title, question, a primary (or red) action and a grey cancel. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={props.open} onClose={props.onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{props.body ?? t('table.confirmBody', { title: props.title })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={props.onClose}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" color={props.danger ? 'error' : 'primary'} disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmText ?? t('table.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
