import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/data';

/** A newly created token's key, shown once with a copy button. */
export default function NewKeyDialog({ tokenKey, onClose }: { tokenKey: string | null; onClose: () => void }) {
  const { t } = useTranslation('token');
  const full = `sk-${tokenKey ?? ''}`;
  return (
    <Dialog open={tokenKey !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="new-key-title">
      <DialogTitle id="new-key-title">{t('newKey.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('newKey.hint')}
        </Alert>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
          <Typography data-testid="new-key" sx={{ fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all', flex: 1 }}>
            {full}
          </Typography>
        </Box>
      </DialogContent>
      <DialogActions>
        <CopyButton text={full} label={t('newKey.copy')} toastLabel={t('newKey.label')} />
        <Button variant="contained" onClick={onClose}>
          {t('newKey.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
