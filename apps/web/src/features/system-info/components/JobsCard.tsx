import { Box, Button, Card, LinearProgress, Stack, Switch, Tooltip, Typography } from '@mui/material';
import PlayArrow from '@mui/icons-material/PlayArrowOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTimestamp, type JobStatus } from '@one-hub/contract';
import { StatusChip, TimeText } from '../../../components/data';
import { showError, showSuccess } from '../../../lib/toast';
import { getJobs, runJob, switchJob } from '../api/jobs';

function outcomeChip(job: JobStatus, t: (k: string) => string) {
  if (job.running) return <StatusChip label={t('jobs.running')} color="info" />;
  if (job.last_outcome === 'ok') return <StatusChip label={t('jobs.ok')} color="success" />;
  if (job.last_outcome === 'error') return <StatusChip label={t('jobs.error')} color="error" />;
  return <StatusChip label={t('jobs.never')} />;
}

/** One scheduled job: name and schedule, on/off switch, last run with its outcome, run now. */
function JobRow({ job, onChanged }: { job: JobStatus; onChanged: () => void }) {
  const { t } = useTranslation('system-info');
  const act = (call: () => Promise<unknown>, done?: string) => () =>
    void call()
      .then(() => done && showSuccess(done))
      .catch(showError)
      .finally(onChanged);
  const schedule = job.configured ? job.schedule : t('jobs.notConfigured');
  return (
    <Box data-testid={`job-${job.name}`} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 2, py: 1.25, borderTop: 1, borderColor: 'divider' }}>
      <Box sx={{ flex: { xs: '1 1 100%', sm: '1 1 220px' }, minWidth: 0 }}>
        <Typography variant="subtitle2">{t(`jobs.names.${job.name}`)}</Typography>
        <Typography variant="caption" color="text.secondary">
          {schedule}
          {job.configured && job.next_run_at > 0 && ` · ${t('jobs.next', { time: formatTimestamp(job.next_run_at) })}`}
        </Typography>
      </Box>
      <Box sx={{ flex: { xs: '1 1 100%', sm: '2 1 300px' }, minWidth: 0, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {outcomeChip(job, t)}
        <TimeText value={job.last_run_at} fallback="" color="text.secondary" />
        {job.last_run_at > 0 && <Typography variant="caption" color="text.secondary">{t('jobs.took', { ms: job.last_duration_ms })}</Typography>}
        <Typography variant="body2" data-testid="job-message" sx={{ flex: '1 1 100%', wordBreak: 'break-word', color: job.last_outcome === 'error' ? 'error.main' : 'text.primary' }}>
          {job.last_message}
        </Typography>
      </Box>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', ml: { sm: 'auto' } }}>
        <Tooltip title={t('jobs.switch')}>
          <Switch checked={job.enabled} onChange={act(() => switchJob(job.name, !job.enabled))} slotProps={{ input: { 'aria-label': t('jobs.switch') } }} />
        </Tooltip>
        <Button size="small" variant="outlined" startIcon={<PlayArrow />} disabled={job.running} onClick={act(() => runJob(job.name), t('jobs.started'))}>
          {t('jobs.runNow')}
        </Button>
      </Stack>
    </Box>
  );
}

/** Root's view of the master node's scheduled jobs, refreshed every few seconds while one runs. */
export function JobsCard() {
  const { t } = useTranslation('system-info');
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['system-jobs'],
    queryFn: getJobs,
    retry: false,
    refetchInterval: (q) => (q.state.data?.jobs?.some((j) => j.running) ? 2000 : false),
  });
  const jobs = Array.isArray(query.data?.jobs) ? query.data.jobs : [];
  const refresh = () => void client.invalidateQueries({ queryKey: ['system-jobs'] });
  let body;
  if (query.isLoading) body = <LinearProgress sx={{ m: 2 }} />;
  else if (query.data?.node_type === 'slave') body = <Typography color="text.secondary" sx={{ p: 2 }}>{t('jobs.slave')}</Typography>;
  else if (!jobs.length) body = <Typography color="text.secondary" sx={{ p: 2 }}>{t('jobs.empty')}</Typography>;
  else body = jobs.map((job) => <JobRow key={job.name} job={job} onChanged={refresh} />);
  return (
    <Card sx={{ mb: 2 }} data-testid="jobs-card">
      <Typography variant="h6" sx={{ px: 2, pt: 2, pb: 1 }}>
        {t('jobs.title')}
      </Typography>
      {body}
    </Card>
  );
}
