import { Alert, Box, Button, Card, Chip, Grid, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { monitorsOf, uptimeTone, type KumaHeartbeats, type KumaPage } from '../uptime-data';

/** The gateway passes Uptime Kuma's JSON through as it is; only failures come as the console envelope. */
async function kuma<T>(path: string): Promise<T> {
  const res = await fetch(`/api/user/dashboard/uptimekuma/${path}`, { credentials: 'same-origin' });
  const body = (await res.json().catch(() => null)) as (T & { message?: string }) | null;
  if (!res.ok || !body) throw new ApiError(body?.message || `HTTP ${res.status}`, res.status, body?.message);
  return body;
}

const BEAT_COLOUR: Record<number, string> = { 0: 'error.main', 1: 'success.main', 2: 'warning.main', 3: 'info.main' };

/** Uptime Kuma monitors of the configured status page (console-screens §12). */
export default function StatusPanel() {
  const { t } = useTranslation('dashboard');
  const page = useQuery({ queryKey: ['uptime-page'], queryFn: () => kuma<KumaPage>('status-page'), retry: false });
  const beats = useQuery({ queryKey: ['uptime-beats'], queryFn: () => kuma<KumaHeartbeats>('status-page/heartbeat'), retry: false });
  const monitors = page.data && beats.data ? monitorsOf(page.data, beats.data) : [];
  const refresh = () => void Promise.all([page.refetch(), beats.refetch()]);
  const error = page.error ?? beats.error;
  return (
    <Stack spacing={2} data-testid="status-panel">
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button startIcon={<Refresh />} onClick={refresh} disabled={page.isFetching || beats.isFetching}>
          {t('refresh')}
        </Button>
      </Stack>
      {error && <Alert severity="error">{error instanceof Error && error.message ? error.message : t('loadFailed')}</Alert>}
      {(page.isLoading || beats.isLoading) && <Skeleton variant="rounded" height={120} />}
      {!error && page.data && beats.data && monitors.length === 0 && <Typography color="text.secondary">{t('noMonitors')}</Typography>}
      <Grid container spacing={2}>
        {monitors.map((m) => (
          <Grid key={m.id} size={{ xs: 12, md: 6 }}>
            <Card sx={{ p: 2 }} data-testid={`monitor-${m.id}`}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: m.status === null ? 'text.disabled' : BEAT_COLOUR[m.status] }} />
                <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} noWrap>
                  {m.name}
                </Typography>
                {m.uptime !== null && <Chip size="small" color={uptimeTone(m.uptime)} label={`${m.uptime}%`} />}
              </Stack>
              <Stack direction="row" spacing={0.25} sx={{ height: 22, mb: 1 }}>
                {m.history.map((s, i) => (
                  <Tooltip key={i} title={t(`beat.${s}`, { defaultValue: String(s) })}>
                    <Box sx={{ flex: 1, maxWidth: 8, borderRadius: 0.5, bgcolor: BEAT_COLOUR[s] ?? 'text.disabled' }} />
                  </Tooltip>
                ))}
              </Stack>
              <Typography variant="caption" color="text.secondary">
                {m.group}
                {m.time && ` · ${m.time}`}
                {m.ping !== null && ` · ${m.ping} ms`}
              </Typography>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}
