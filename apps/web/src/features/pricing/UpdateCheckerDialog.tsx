import { useEffect, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, InputAdornment, Stack, TextField, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from '@mui/material';
import Preview from '@mui/icons-material/PreviewOutlined';
import { useTranslation } from 'react-i18next';
import type { PriceSyncDiff } from '@one-hub/contract';
import { api } from '../../lib/api';
import { readString, writeString } from '../../lib/storage';
import { showError, showSuccess } from '../../lib/toast';
import { StatusChip } from '../../components/data';
import { priceChanges } from './price-logic';

export const PRICE_URL_KEY = 'oneapi_price_update_url';
type Mode = PriceSyncDiff['mode'];

/**
 * Price sync from a published list (console-screens §3.12): the server fetches the list and
 * answers the diff it would make in the chosen mode; the admin reads it, then applies exactly it
 * (the diff is sent back with its digest; nothing is fetched again).
 */
export default function UpdateCheckerDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation('pricing');
  const [url, setUrl] = useState('');
  const [mode, setMode] = useState<Mode>('add');
  const [diff, setDiff] = useState<PriceSyncDiff | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setDiff(null);
    setProblem('');
    const stored = readString(PRICE_URL_KEY);
    if (stored) setUrl(stored);
    else api<string>('/api/prices/updateService').then(setUrl, () => setUrl(''));
  }, [open]);

  const body = (m: Mode) => ({ updateMode: m, ...(url.trim() ? { url: url.trim() } : {}) });
  const preview = async (m: Mode = mode) => {
    setBusy(true);
    setProblem('');
    try {
      writeString(PRICE_URL_KEY, url.trim());
      setDiff(await api<PriceSyncDiff>('/api/prices/sync/preview', { json: body(m) }));
    } catch (e) {
      setDiff(null);
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  // Applies exactly the diff shown: the server refuses (409) if stored prices changed since the preview.
  const apply = async () => {
    if (!diff) return;
    setBusy(true);
    try {
      const done = await api<PriceSyncDiff>('/api/prices/sync/apply', { json: diff });
      showSuccess(t('synced', { added: done.added.length, changed: done.changed.length, removed: done.removed.length }));
      onDone();
      onClose();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  const empty = diff !== null && !diff.added.length && !diff.changed.length && !diff.removed.length;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth data-testid="price-sync-dialog">
      <DialogTitle>{t('updateTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            label={t('updateUrl')}
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setDiff(null);
            }}
            slotProps={{
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t('preview')}>
                      <span>
                        <IconButton aria-label={t('preview')} onClick={() => void preview()} disabled={busy}>
                          <Preview />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t('syncMode')}
            </Typography>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={mode}
              onChange={(_e, v: Mode | null) => {
                if (!v) return;
                setMode(v);
                if (diff) void preview(v);
              }}
            >
              <ToggleButton value="add">{t('addOnly')}</ToggleButton>
              <ToggleButton value="update">{t('updateMode')}</ToggleButton>
              <ToggleButton value="overwrite">{t('overwrite')}</ToggleButton>
            </ToggleButtonGroup>
          </Stack>
          <Typography variant="caption" color="text.secondary">
            {t(`modeHelp.${mode}`)}
          </Typography>
          {problem && <Alert severity="error">{problem}</Alert>}
          {diff && (
            <Stack spacing={1.5} data-testid="price-sync-diff">
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, '& > *': { m: '0 !important' } }}>
                <StatusChip label={t('totalOnServer', { count: diff.fetched })} color="primary" />
                <StatusChip label={t('newModels', { count: diff.added.length })} color="success" />
                <StatusChip label={t('changedModels', { count: diff.changed.length })} color="warning" />
                <StatusChip label={t('removedModels', { count: diff.removed.length })} color="error" />
              </Stack>
              {empty && <Alert severity="info">{t('nothingToSync')}</Alert>}
              {diff.added.length > 0 && (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {diff.added.map((p) => (
                    <StatusChip key={p.model} label={`+ ${p.model}`} color="success" variant="outlined" />
                  ))}
                </Box>
              )}
              {diff.changed.length > 0 && (
                <Box sx={{ maxHeight: 240, overflow: 'auto' }}>
                  {diff.changed.map((d) => (
                    <Typography key={d.model} variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                      {d.model}: {priceChanges(d.before, d.after, i18n.language).map((c) => `${t(`diff.${c.field}`)} ${c.from} → ${c.to}`).join('; ')}
                    </Typography>
                  ))}
                </Box>
              )}
              {diff.removed.length > 0 && (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {diff.removed.map((p) => (
                    <StatusChip key={p.model} label={`− ${p.model}`} color="error" variant="outlined" />
                  ))}
                </Box>
              )}
            </Stack>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.close')}
        </Button>
        <Button variant="outlined" disabled={busy} onClick={() => void preview()} data-testid="price-sync-preview">
          {t('preview')}
        </Button>
        <Button variant="contained" color={mode === 'overwrite' ? 'warning' : 'primary'} disabled={busy || !diff || empty} onClick={() => void apply()} data-testid="price-sync-apply">
          {t('applySync')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
