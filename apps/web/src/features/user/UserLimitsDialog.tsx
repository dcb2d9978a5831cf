import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RequestLimits, User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import RequestLimitFields, { badLimits, limitsToTexts, textsToLimits, type LimitTexts } from '../../components/RequestLimitFields';

/** An admin sets a user's request limits: they apply to every token of the user together. */
export default function UserLimitsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const loaded = useQuery({ queryKey: ['user-limits', user?.id], queryFn: () => api<RequestLimits>(`/api/limits/user/${user!.id}`), enabled: user !== null, retry: false, gcTime: 0 });
  const [texts, setTexts] = useState<LimitTexts>(() => limitsToTexts());
  const [saving, setSaving] = useState(false);
  useEffect(() => setTexts(limitsToTexts(loaded.data)), [loaded.data]);

  const save = async () => {
    if (!user || badLimits(texts).length) return;
    setSaving(true);
    try {
      await api(`/api/limits/user/${user.id}`, { method: 'PUT', json: textsToLimits(texts) });
      showSuccess(t('common:limits.saved'));
      onClose();
    } catch (e) {
      showError(e);
    }
    setSaving(false);
  };

  return (
    <Dialog open={user !== null} onClose={onClose} maxWidth="sm" fullWidth data-testid="user-limits-dialog">
      <DialogTitle>{t('common:limits.userTitle', { name: user?.username ?? '' })}</DialogTitle>
      <DialogContent dividers>
        {loaded.isLoading ? (
          <Stack sx={{ alignItems: 'center', py: 4 }}>
            <CircularProgress />
          </Stack>
        ) : loaded.error ? (
          <Alert severity="error">{loaded.error.message}</Alert>
        ) : (
          <RequestLimitFields value={texts} onChange={setTexts} help={t('common:limits.userHelp')} />
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || !loaded.data} data-testid="user-limits-submit">
          {t('common:common.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
