import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Channel } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';

/** A tag member's own fields: name and key, both required (everything else belongs to the tag). */
export default function SimpleEditDialog({ channel, onClose, onSaved }: { channel: Channel | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('channel');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [tried, setTried] = useState(false);
  useEffect(() => {
    setName(channel?.name ?? '');
    setKey(channel?.key ?? '');
    setTried(false);
  }, [channel]);
  const save = async () => {
    setTried(true);
    if (!name.trim() || !key.trim() || !channel) return;
    try {
      await api('/api/channel/', { method: 'PUT', json: { id: channel.id, name: name.trim(), key: key.trim() } });
      showSuccess(t('updated'));
      onSaved();
      onClose();
    } catch (e) {
      showError(e);
    }
  };
  const required = t('common:validation.required');
  return (
    <Dialog open={channel !== null} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('editTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label={t('name')} value={name} onChange={(e) => setName(e.target.value)} error={tried && !name.trim()} helperText={tried && !name.trim() ? required : undefined} />
          <TextField label={t('key')} value={key} onChange={(e) => setKey(e.target.value)} error={tried && !key.trim()} helperText={tried && !key.trim() ? required : undefined} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()}>
          {t('common:common.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
