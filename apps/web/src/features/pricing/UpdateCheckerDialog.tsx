import { useEffect, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from '@mui/material';
import CloudDownload from '@mui/icons-material/CloudDownloadOutlined';
import { useTranslation } from 'react-i18next';
import type { PriceEntry, PriceSyncMode } from '@one-hub/contract';
import { api } from '../../lib/api';
import { readString, writeString } from '../../lib/storage';
import { showError, showSuccess } from '../../lib/toast';
import { StatusChip } from '../../components/data';
import { diffPrices, isPriceList } from './price-logic';

export const PRICE_URL_KEY = 'oneapi_price_update_url';

/** Fetches a public price list, shows what is new or changed, and syncs it (console-screens §3.12). */
export default function UpdateCheckerDialog({ open, current, onClose, onDone }: { open: boolean; current: PriceEntry[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('pricing');
  const [url, setUrl] = useState('');
  const [fetched, setFetched] = useState<PriceEntry[] | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setFetched(null);
    setProblem('');
    const stored = readString(PRICE_URL_KEY);
    if (stored) setUrl(stored);
    else api<string>('/api/prices/updateService').then(setUrl, () => setUrl('https://raw.githubusercontent.com/MartialBE/one-api/prices/prices.json'));
  }, [open]);

  const load = async () => {
    setBusy(true);
    setProblem('');
    try {
      writeString(PRICE_URL_KEY, url.trim());
      const res = await fetch(url.trim());
      const body: unknown = await res.json();
      const list = isPriceList(body) ? body : isPriceList((body as { data?: unknown })?.data) ? (body as { data: PriceEntry[] }).data : null;
      if (!list) throw new Error(t('badFormat'));
      setFetched(list);
    } catch (e) {
      setFetched(null);
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const diff = fetched ? diffPrices(current, fetched) : null;
  const sync = async (mode: PriceSyncMode) => {
    if (!fetched) return setProblem(t('fetchFirst'));
    if (mode === 'add' && diff?.added.length === 0) return setProblem(t('noNewModels'));
    setBusy(true);
    try {
      await api('/api/prices/sync', { query: { updateMode: mode }, json: fetched });
      showSuccess(t('synced'));
      onDone();
      onClose();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t('updateTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            label={t('updateUrl')}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            slotProps={{
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t('fetch')}>
                      <IconButton aria-label={t('fetch')} onClick={() => void load()} disabled={busy || !url.trim()}>
                        <CloudDownload />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
          {problem && <Alert severity="error">{problem}</Alert>}
          {diff && fetched && (
            <>
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, '& > *': { m: '0 !important' } }}>
                <StatusChip label={t('totalOnServer', { count: fetched.length })} color="primary" />
                <StatusChip label={t('newModels', { count: diff.added.length })} color="success" />
                <StatusChip label={t('changedModels', { count: diff.changed.length })} color="warning" />
              </Stack>
              {diff.added.length > 0 && (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {diff.added.map((m) => (
                    <StatusChip key={m} label={m} color="success" variant="outlined" />
                  ))}
                </Box>
              )}
              {diff.changed.length > 0 && (
                <Box sx={{ maxHeight: 240, overflow: 'auto' }}>
                  {diff.changed.map((d) => (
                    <Typography key={d.model} variant="body2" sx={{ fontFamily: 'monospace' }}>
                      {d.model}: {d.changes.map((c) => `${t(`diff.${c.field}`)} ${c.from} → ${c.to}`).join('; ')}
                    </Typography>
                  ))}
                </Box>
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.close')}
        </Button>
        <Button variant="outlined" disabled={busy || !diff || diff.added.length === 0} onClick={() => void sync('add')}>
          {t('addOnly')}
        </Button>
        <Button variant="outlined" disabled={busy || !fetched} onClick={() => void sync('update')}>
          {t('updateMode')}
        </Button>
        <Button variant="contained" color="warning" disabled={busy || !fetched} onClick={() => void sync('overwrite')}>
          {t('overwrite')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
