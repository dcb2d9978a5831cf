import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { jumpTarget } from './jump-target';

export default function JumpPage() {
  const { t } = useTranslation('jump');
  const [params] = useSearchParams();
  const target = jumpTarget(params.get('url'));
  useEffect(() => {
    if (target) window.location.href = target;
  }, [target]);
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', gap: 2, minHeight: 'calc(100vh - 136px)', alignContent: 'center' }}>
      {target && <CircularProgress />}
      <Typography variant="h6" color={target ? 'text.primary' : 'text.secondary'}>
        {target ? t('redirecting') : t('invalid')}
      </Typography>
    </Box>
  );
}
