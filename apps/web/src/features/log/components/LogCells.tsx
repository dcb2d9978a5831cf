import { Badge, Box, Stack, Tooltip, Typography } from '@mui/material';
import BoltOutlined from '@mui/icons-material/BoltOutlined';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '@one-hub/contract';
import { StatusChip } from '../../../components/data';
import { useAppSelector } from '../../../store';
import { durationTone, extraTokens, speedTone, tokensPerSecond } from '../log-data';

/** Total time (and first response) in seconds, then the output speed. */
export function DurationCell({ log }: { log: LogEntry }) {
  const { t } = useTranslation('log');
  const first = Number(log.metadata?.first_response ?? 0);
  const seconds = log.request_time / 1000;
  const tps = tokensPerSecond(log.completion_tokens, log.request_time, first);
  const firstLabel = first > 0 && log.is_stream ? `${t('firstResponse')} ${(first / 1000).toFixed(2)} S` : '';
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-end' }}>
      <StatusChip label={`${seconds.toFixed(2)} S`} color={durationTone(seconds)} title={firstLabel ? `${seconds.toFixed(2)} S / ${firstLabel}` : undefined} />
      {firstLabel && <StatusChip label={`${(first / 1000).toFixed(2)} S`} icon={<BoltOutlined />} color={durationTone(seconds)} variant="ghost" title={firstLabel} />}
      {tps !== null && <StatusChip label={`${tps.toFixed(0)} t/s`} color={speedTone(tps)} variant="outlined" title={t('speedHelp')} />}
    </Stack>
  );
}

/** Prompt tokens; a dot and a tooltip when the row holds extra token kinds. */
export function InputCell({ log }: { log: LogEntry }) {
  const { t } = useTranslation('log');
  const extras = extraTokens(log.metadata);
  if (extras.length === 0) return <>{log.prompt_tokens}</>;
  const title = (
    <Box sx={{ p: 0.5 }}>
      {extras.map((e) => (
        <Typography key={e.key} variant="caption" component="div">
          {t(`extra.${e.key}`)}: {e.value}
          {e.ratio !== undefined && ` × (${e.ratio} − 1) = ${Math.round(e.value * (e.ratio - 1))}`}
        </Typography>
      ))}
      <Typography variant="caption" component="div" sx={{ mt: 0.5, fontWeight: 600 }}>
        {t('inputTotal', { n: log.prompt_tokens })} · {t('outputTotal', { n: log.completion_tokens })}
      </Typography>
    </Box>
  );
  return (
    <Tooltip title={title}>
      <Badge variant="dot" color="primary" data-testid="extra-tokens">
        <span>{log.prompt_tokens}</span>
      </Badge>
    </Tooltip>
  );
}

/** The group the request was billed in; "original → backup" when the backup group served it. */
export function GroupCell({ log }: { log: LogEntry }) {
  const { t } = useTranslation('log');
  const groups = useAppSelector((s) => s.account.userGroupMap);
  const name = (symbol: string) => (symbol ? (groups[symbol]?.name ?? symbol) : t('followUser'));
  const meta = log.metadata ?? {};
  if (meta.is_backup_group) {
    return (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
        <StatusChip label={name(String(meta.group_name ?? log.group))} />
        <span>→</span>
        <StatusChip label={name(String(meta.backup_group_name ?? ''))} color="warning" />
      </Stack>
    );
  }
  return <StatusChip label={name(log.group)} />;
}
