import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Channel } from '@one-hub/contract';
import { groupList } from './channel-ui';
import { StatusChip } from '../../components/data';

/** The expanded row: model chips, test model, proxy and other (each chip copies). */
export default function ChannelDetail({ channel }: { channel: Channel }) {
  const { t } = useTranslation('channel');
  const models = channel.models.split(',').map((m) => m.trim()).filter(Boolean).sort();
  return (
    <Stack spacing={1} data-testid="channel-detail">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}>
        <Typography variant="caption" color="text.secondary" sx={{ mr: 1 }}>
          {t('models')}
        </Typography>
        {models.map((m) => (
          <StatusChip key={m} label={m} copyText={m} variant="outlined" color="primary" />
        ))}
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Box>
          <Typography variant="caption" color="text.secondary" sx={{ mr: 1 }}>
            {t('group')}
          </Typography>
          {groupList(channel.group).map((g) => (
            <StatusChip key={g} label={g} color="info" sx={{ mr: 0.5 }} />
          ))}
        </Box>
        {channel.test_model && (
          <Box>
            <Typography variant="caption" color="text.secondary" sx={{ mr: 1 }}>
              {t('testModel')}
            </Typography>
            <StatusChip label={channel.test_model} copyText={channel.test_model} color="secondary" />
          </Box>
        )}
        {channel.proxy && (
          <Typography variant="body2">
            <Typography component="span" variant="caption" color="text.secondary" sx={{ mr: 1 }}>
              {t('proxy')}
            </Typography>
            {channel.proxy}
          </Typography>
        )}
        {channel.other && (
          <Box>
            <Typography variant="caption" color="text.secondary" sx={{ mr: 1 }}>
              {t('otherShort')}
            </Typography>
            <StatusChip label={channel.other} copyText={channel.other} />
          </Box>
        )}
      </Stack>
    </Stack>
  );
}
