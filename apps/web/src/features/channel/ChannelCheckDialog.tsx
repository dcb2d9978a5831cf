import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Card, Checkbox, Collapse, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Channel } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { StatusChip, type ChipColor } from '../../components/data';
import { checkable, passed, runCheck, type CheckItem, type ModelReport } from './channel-check';

const STATUS: Record<CheckItem['status'], { key: string; color: ChipColor }> = {
  0: { key: 'failed', color: 'error' },
  1: { key: 'success', color: 'success' },
  2: { key: 'unknown', color: 'warning' },
};

function CheckRow({ item }: { item: CheckItem }) {
  const { t } = useTranslation('channel');
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ py: 0.75, borderTop: 1, borderColor: 'divider' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <StatusChip label={t(`check.status.${STATUS[item.status].key}`)} color={STATUS[item.status].color} />
        <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 96 }}>{t(`check.name.${item.name}`)}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 0, wordBreak: 'break-word' }}>{item.remark}</Typography>
        {item.raw && <Button size="small" onClick={() => setOpen((o) => !o)}>{open ? t('check.hideRaw') : t('check.showRaw')}</Button>}
      </Stack>
      <Collapse in={open} unmountOnExit>
        <Box component="pre" sx={{ m: 0, mt: 0.5, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, maxHeight: 200, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{item.raw}</Box>
      </Collapse>
    </Box>
  );
}

/** Model channel check (console-screens §3.3): choose models, stream five probes per model, show each verdict. */
export default function ChannelCheckDialog({ channel, onClose }: { channel: Channel | null; onClose: () => void }) {
  const { t } = useTranslation('channel');
  const [options, setOptions] = useState<string[]>([]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [reports, setReports] = useState<ModelReport[]>([]);
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState('');
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    const own = (channel?.models ?? '').split(',').map((m) => m.trim()).filter((m) => m && !m.endsWith('*'));
    setOptions(own);
    setChosen(new Set());
    setReports([]);
    setProblem('');
    return () => abort.current?.abort();
  }, [channel]);

  const fetchModels = async () => {
    if (!channel) return;
    try {
      const list = await api<string[]>('/api/channel/provider_models_list', { json: { id: channel.id, type: channel.type, key: '', base_url: channel.base_url ?? '', other: channel.other, proxy: channel.proxy ?? '' } });
      setOptions((o) => [...new Set([...o, ...checkable(list)])]);
    } catch (e) {
      setProblem(describeError(e, t).text);
    }
  };
  const start = async () => {
    if (!channel) return;
    abort.current = new AbortController();
    setRunning(true);
    setReports([]);
    setProblem('');
    try {
      await runCheck(
        channel.id,
        [...chosen],
        (e) => {
          if (e.type === 'result') setReports((r) => [...r, e.data]);
          if (e.type === 'error') setProblem(e.data);
        },
        abort.current.signal,
      );
    } catch (e) {
      if ((e as Error).name !== 'AbortError') setProblem((e as Error).message);
    } finally {
      setRunning(false);
    }
  };
  const toggle = (m: string) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(m)) n.delete(m);
      else n.add(m);
      return n;
    });

  return (
    <Dialog open={channel !== null} onClose={onClose} fullWidth maxWidth="md" data-testid="channel-check">
      <DialogTitle>{t('check.title', { name: channel?.name ?? '' })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, '& > *': { m: '0 !important' } }}>
            <Button size="small" variant="outlined" onClick={() => void fetchModels()} disabled={running}>{t('check.fetch')}</Button>
            <Button size="small" onClick={() => setChosen(new Set(options))} disabled={running}>{t('selectAll')}</Button>
            <Button size="small" onClick={() => setChosen(new Set())} disabled={running}>{t('selectNone')}</Button>
          </Stack>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' }, maxHeight: 200, overflow: 'auto' }}>
            {options.map((m) => (
              <FormControlLabel key={m} control={<Checkbox size="small" checked={chosen.has(m)} onChange={() => toggle(m)} disabled={running} />} label={m} sx={{ '& .MuiFormControlLabel-label': { fontSize: 14, wordBreak: 'break-all' } }} />
            ))}
          </Box>
          {running && <LinearProgress />}
          {problem && <Alert severity="error">{problem}</Alert>}
          {reports.map((r) => (
            <Card key={r.model} data-testid="check-report" sx={{ p: 1.5 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
                <Typography sx={{ fontWeight: 700, flex: 1, wordBreak: 'break-all' }}>{r.model}</Typography>
                <StatusChip label={passed(r) ? t('check.pass') : t('check.fail')} color={passed(r) ? 'success' : 'error'} variant="filled" />
              </Stack>
              {r.checks.map((c) => (
                <CheckRow key={c.name} item={c} />
              ))}
            </Card>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>{t('common:common.close')}</Button>
        <Button variant="contained" onClick={() => void start()} disabled={running || chosen.size === 0} data-testid="check-start">
          {t('check.start', { count: chosen.size })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
