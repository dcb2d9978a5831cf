import { useState } from 'react';
import { Avatar, Box, Card, Chip, Collapse, IconButton, Skeleton, Stack, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AvailableModel, ModelOwner } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { copyText } from '../../../lib/toast';
import { modelsByProvider, type ProviderModels } from '../dashboard-data';
import { useServerText } from '../../../lib/server-text';

function ModelChips({ group, nowrap }: { group: ProviderModels; nowrap?: boolean }) {
  return (
    <Stack direction="row" spacing={0.75} useFlexGap sx={{ flexWrap: nowrap ? 'nowrap' : 'wrap', rowGap: 0.75 }}>
      {group.models.map((m) => (
        <Chip key={m} size="small" color="primary" variant="outlined" label={m} onClick={() => void copyText(m, m)} sx={{ flexShrink: 0 }} />
      ))}
    </Stack>
  );
}

/** The models this user can call, grouped by provider; a chip click copies the name. */
export default function ModelsStrip() {
  const { t } = useTranslation('dashboard');
  const { ownerName } = useServerText();
  const [open, setOpen] = useState(false);
  const models = useQuery({ queryKey: ['available-models'], queryFn: () => api<Record<string, AvailableModel>>('/api/available_model') });
  const owners = useQuery({ queryKey: ['model-owners'], queryFn: () => api<ModelOwner[]>('/api/model_ownedby/') });
  const groups = modelsByProvider(models.data ?? {}, owners.data ?? []);
  return (
    <Card data-testid="models-strip" sx={{ px: 2, py: 1.5 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <Typography variant="subtitle2" sx={{ flexShrink: 0 }}>
          {t('availableModels')}
        </Typography>
        <Box
          sx={{
            flex: 1,
            minWidth: 0,
            overflowX: 'auto',
            py: 0.5,
            maskImage: 'linear-gradient(to right, black 90%, transparent)',
            scrollbarWidth: 'none',
          }}
        >
          {models.isLoading ? (
            <Skeleton width="70%" />
          ) : groups.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {models.isError ? t('loadFailed') : t('noModels')}
            </Typography>
          ) : open ? null : (
            <ModelChips group={groups[0]} nowrap />
          )}
        </Box>
        <IconButton
          size="small"
          aria-label={t(open ? 'collapse' : 'expand')}
          onClick={() => setOpen(!open)}
          disabled={groups.length === 0}
          sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform .2s' }}
        >
          <ExpandMore />
        </IconButton>
      </Stack>
      <Collapse in={open} unmountOnExit>
        <Stack spacing={1.5} sx={{ mt: 1 }}>
          {groups.map((g) => (
            <Box key={g.owner}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.75 }}>
                <Avatar src={g.icon || undefined} alt={g.owner} sx={{ width: 20, height: 20, fontSize: 12 }}>
                  {g.owner.charAt(0).toUpperCase()}
                </Avatar>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {ownerName(g.owner)}
                </Typography>
              </Stack>
              <ModelChips group={g} />
            </Box>
          ))}
        </Stack>
      </Collapse>
    </Card>
  );
}
