import { useState } from 'react';
import { Alert, Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Channel, Page } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';

type TabId = 'azure' | 'model';

/** Batch processing (console-screens §3.3): Azure API version, or removing one model from many channels. */
export default function BatchDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('channel');
  const [tab, setTab] = useState<TabId>('azure');
  const [search, setSearch] = useState('');
  const [value, setValue] = useState('');
  const [found, setFound] = useState<Channel[] | null>(null);
  const [chosen, setChosen] = useState<Set<number>>(new Set());

  const switchTab = (next: TabId) => {
    setTab(next);
    setFound(null);
    setChosen(new Set());
    setSearch('');
    setValue('');
  };
  const find = async () => {
    try {
      const query = tab === 'azure' ? { type: 3, other: search.trim(), page: 1, size: 100, filter_tag: 1 } : { models: search.trim(), page: 1, size: 100, filter_tag: 1 };
      const page = await api<Page<Channel>>('/api/channel/', { query });
      const model = search.trim();
      // Channels whose only model is this one are left out: removing it would leave them empty.
      const rows = tab === 'azure' ? page.data : page.data.filter((c) => { const ms = c.models.split(',').map((m) => m.trim()); return ms.includes(model) && ms.length > 1; });
      setFound(rows);
      setChosen(new Set(rows.map((c) => c.id)));
    } catch (e) {
      showError(e);
    }
  };
  const send = async () => {
    const ids = [...chosen];
    try {
      const n = tab === 'azure' ? await api<number>('/api/channel/batch/azure_api', { method: 'PUT', json: { ids, value: value.trim() } }) : await api<number>('/api/channel/batch/del_model', { method: 'PUT', json: { ids, value: search.trim() } });
      showSuccess(tab === 'azure' ? t('batchUpdated', { count: n }) : t('batchModelDeleted', { count: n }));
      onDone();
      void find();
    } catch (e) {
      showError(e);
    }
  };
  const toggle = (id: number) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t('batchTitle')}</DialogTitle>
      <Tabs value={tab} onChange={(_e, v: TabId) => switchTab(v)} sx={{ px: 3 }}>
        <Tab value="azure" label={t('batchAzure')} />
        <Tab value="model" label={t('batchModel')} />
      </Tabs>
      <DialogContent dividers>
        <Stack spacing={2}>
          {tab === 'model' && <Alert severity="info">{t('batchModelNote')}</Alert>}
          <Stack direction="row" spacing={1}>
            <TextField size="small" fullWidth label={tab === 'azure' ? t('batchAzureSearch') : t('batchModelSearch')} value={search} onChange={(e) => setSearch(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && void find()} />
            <Button variant="outlined" onClick={() => void find()} disabled={tab === 'model' && !search.trim()}>
              {t('common:table.search')}
            </Button>
          </Stack>
          {found && (
            <>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
                  {t('batchFound', { count: found.length })}
                </Typography>
                <Button size="small" onClick={() => setChosen(new Set(found.map((c) => c.id)))}>{t('selectAll')}</Button>
                <Button size="small" onClick={() => setChosen(new Set())}>{t('selectNone')}</Button>
              </Stack>
              <Box sx={{ maxHeight: 280, overflow: 'auto' }}>
                {found.map((c) => (
                  <FormControlLabel key={c.id} sx={{ display: 'flex' }} control={<Checkbox size="small" checked={chosen.has(c.id)} onChange={() => toggle(c.id)} />} label={`${c.id} - ${c.name}${tab === 'azure' ? ` (${c.other || '-'})` : ''}`} />
                ))}
              </Box>
              {tab === 'azure' && <TextField size="small" label={t('batchAzureValue')} value={value} onChange={(e) => setValue(e.target.value)} placeholder="2024-05-01-preview" />}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.close')}
        </Button>
        <Button variant="contained" color={tab === 'model' ? 'error' : 'primary'} disabled={!found || chosen.size === 0 || (tab === 'azure' && !value.trim())} onClick={() => void send()}>
          {tab === 'azure' ? t('batchApply') : t('delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
