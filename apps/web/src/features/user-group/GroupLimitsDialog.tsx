import { Alert, Box, Button, Divider, IconButton, Stack, TextField, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { ModelLimits, UserGroup } from '@one-hub/contract';
import { api } from '../../lib/api';
import LimitsDialog from '../../components/LimitsDialog';
import RequestLimitFields, { badLimits, limitsToTexts, textsToLimits, type LimitTexts } from '../../components/RequestLimitFields';

interface Row {
  model: string;
  limits: LimitTexts;
}

const toRows = (data?: ModelLimits): Row[] => Object.entries(data ?? {}).map(([model, l]) => ({ model, limits: limitsToTexts(l) }));
const invalid = (rows: Row[]) => rows.some((r) => !r.model.trim() || badLimits(r.limits).length) || new Set(rows.map((r) => r.model.trim())).size !== rows.length;

/** Per-model request limits of a group; each user of the group is limited separately. */
export default function GroupLimitsDialog({ group, onClose }: { group: UserGroup | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <LimitsDialog
      open={group !== null}
      title={t('common:limits.groupTitle', { name: group?.name ?? '' })}
      testId="group-limits"
      queryKey={['group-limits', group?.id]}
      load={() => api<ModelLimits>(`/api/limits/group/${group!.id}`)}
      save={(rows) => api(`/api/limits/group/${group!.id}`, { method: 'PUT', json: Object.fromEntries(rows.map((r) => [r.model.trim(), textsToLimits(r.limits)])) })}
      toState={toRows}
      invalid={invalid}
      onClose={onClose}
    >
      {(rows, setRows) => {
        const update = (i: number, patch: Partial<Row>) => setRows((r) => r.map((row, j) => (j === i ? { ...row, ...patch } : row)));
        return (
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
        );
      }}
    </LimitsDialog>
  );
}
