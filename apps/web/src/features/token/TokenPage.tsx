import { useCallback, useEffect, useState } from 'react';
import {
  Box, Button, Card, Chip, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, IconButton, LinearProgress,
  Stack, Switch, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Tooltip, Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../lib/toast';
import { formatQuota, formatTimestamp, type Page, type Token } from '@one-hub/contract';
import { api, ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';

const STATUS_COLOR = { 1: 'success', 2: 'default', 3: 'warning', 4: 'error' } as const;

function CreateDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [name, setName] = useState('');
  const [unlimited, setUnlimited] = useState(true);
  const [quota, setQuota] = useState(500000);
  const save = async () => {
    try {
      await api('/api/token/', { method: 'POST', json: { name, unlimited_quota: unlimited, remain_quota: unlimited ? 0 : quota } });
      toast(t('common.created'), 'success');
      onCreated();
      onClose();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e), 'error');
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('token.create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label={t('token.name')} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <FormControlLabel control={<Switch checked={unlimited} onChange={(e) => setUnlimited(e.target.checked)} />} label={t('token.unlimited')} />
          {!unlimited && <TextField type="number" label={t('token.quota')} value={quota} onChange={(e) => setQuota(Number(e.target.value))} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void save()}>
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function TokenPage() {
  const { t } = useTranslation();
  const { status } = useSession();
  const toast = useToast();
  const [page, setPage] = useState<Page<Token> | null>(null);
  const [creating, setCreating] = useState(false);
  const display = { quotaPerUnit: status?.quota_per_unit ?? 500000, displayInCurrency: status?.display_in_currency ?? true };
  const load = useCallback(() => void api<Page<Token>>('/api/token/?size=50').then(setPage).catch(() => undefined), []);
  useEffect(() => {
    load();
  }, [load]);

  const copy = async (key: string) => {
    const label = t('token.key');
    try {
      await navigator.clipboard.writeText(`sk-${key}`);
      toast(t('common.copyOk', { label }), 'success');
    } catch {
      toast(`${t('common.copyFail', { label })} sk-${key}`, 'warning', { persist: true });
    }
  };
  const remove = async (id: number) => {
    await api(`/api/token/${id}`, { method: 'DELETE' });
    toast(t('common.deleted'), 'success');
    load();
  };

  return (
    <Card>
      <Box sx={{ display: 'flex', alignItems: 'center', p: 2, gap: 2 }}>
        <Typography variant="h6" sx={{ fontWeight: 700, flexGrow: 1 }}>
          {t('token.title')}
        </Typography>
        <Button variant="contained" onClick={() => setCreating(true)}>
          {t('token.create')}
        </Button>
      </Box>
      {!page && <LinearProgress />}
      {page && page.data.length === 0 && <Typography sx={{ p: 4, textAlign: 'center' }} color="text.secondary">{t('token.empty')}</Typography>}
      {page && page.data.length > 0 && (
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('token.name')}</TableCell>
                <TableCell>{t('token.status')}</TableCell>
                <TableCell>{t('token.remain')}</TableCell>
                <TableCell>{t('token.usedQuota')}</TableCell>
                <TableCell>{t('token.expires')}</TableCell>
                <TableCell align="right" />
              </TableRow>
            </TableHead>
            <TableBody>
              {page.data.map((tok) => (
                <TableRow key={tok.id} hover>
                  <TableCell>{tok.name}</TableCell>
                  <TableCell>
                    <Chip size="small" color={STATUS_COLOR[tok.status as 1] ?? 'default'} label={t(`token.status.${tok.status}`)} />
                  </TableCell>
                  <TableCell>{tok.unlimited_quota ? t('token.unlimited') : formatQuota(tok.remain_quota, display)}</TableCell>
                  <TableCell>{formatQuota(tok.used_quota, display)}</TableCell>
                  <TableCell>{tok.expired_time === -1 ? t('token.never') : formatTimestamp(tok.expired_time)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('token.copy')}>
                      <IconButton size="small" aria-label={t('token.copy')} onClick={() => void copy(tok.key)}>
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('token.delete')}>
                      <IconButton size="small" aria-label={t('token.delete')} onClick={() => void remove(tok.id)}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <CreateDialog open={creating} onClose={() => setCreating(false)} onCreated={load} />
    </Card>
  );
}
