import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Divider, IconButton, Stack, TextField, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ModelLimits, UserGroup } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import RequestLimitFields, { badLimits, limitsToTexts, textsToLimits, type LimitTexts } from '../../components/RequestLimitFields';

interface Row {
  model: string;
  limits: LimitTexts;
}

/** Per-model request limits of a group; each user of the group is limited separately. */
export default function GroupLimitsDialog({ group, onClose }: { group: UserGroup | null; onClose: () => void }) {
  const { t } = useTranslation();
  const loaded = useQuery({ queryKey: ['group-limits', group?.id], queryFn: () => api<ModelLimits>(`/api/limits/group/${group!.id}`), enabled: group !== null, retry: false, gcTime: 0 });
  const [rows, setRows] = useState<Row[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => setRows(Object.entries(loaded.data ?? {}).map(([model, l]) => ({ model, limits: limitsToTexts(l) }))), [loaded.data]);

  const update = (i: number, patch: Partial<Row>) => setRows((r) => r.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  const invalid = rows.some((r) => !r.model.trim() || badLimits(r.limits).length) || new Set(rows.map((r) => r.model.trim())).size !== rows.length;

  const save = async () => {
    if (!group || invalid) return;
    setSaving(true);
    try {
      await api(`/api/limits/group/${group.id}`, { method: 'PUT', json: Object.fromEntries(rows.map((r) => [r.model.trim(), textsToLimits(r.limits)])) });
      showSuccess(t('common:limits.saved'));
      onClose();
    } catch (e) {
      showError(e);
    }
    setSaving(false);
  };

  return (
    <Dialog open={group !== null} onClose={onClose} maxWidth="sm" fullWidth data-testid="group-limits-dialog">
      <DialogTitle>{t('common:limits.groupTitle', { name: group?.name ?? '' })}</DialogTitle>
      <DialogContent dividers>
        {loaded.isLoading ? (
          <Stack sx={{ alignItems: 'center', py: 4 }}>
            <CircularProgress />
          </Stack>
        ) : loaded.error ? (
          <Alert severity="error">{loaded.error.message}</Alert>
        ) : (
          <Stack spacing={2} divider={<Divider />}>
            <Typography variant="body2" color="text.secondary">
              {t('common:limits.groupHelp')}
            </Typography>
            {rows.length === 0 && <Alert severity="info">{t('common:limits.groupEmpty')}</Alert>}
            {rows.map((row, i) => (
              <Box key={i}>
                <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center' }}>
                  <TextField size="small" fullWidth label={t('common:limits.model')} value={row.model} error={!row.model.trim()} onChange={(e) => update(i, { model: e.target.value })} />
                  <IconButton aria-label={t('common:limits.remove')} onClick={() => setRows((r) => r.filter((_, j) => j !== i))}>
                    <DeleteOutline />
                  </IconButton>
                </Stack>
                <RequestLimitFields value={row.limits} onChange={(limits) => update(i, { limits })} help={t('common:limits.perUserHelp')} />
              </Box>
            ))}
            <Button startIcon={<Add />} onClick={() => setRows((r) => [...r, { model: '', limits: limitsToTexts() }])} sx={{ alignSelf: 'flex-start' }} data-testid="group-limits-add">
              {t('common:limits.addModel')}
            </Button>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || !loaded.data || invalid} data-testid="group-limits-submit">
          {t('common:common.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
