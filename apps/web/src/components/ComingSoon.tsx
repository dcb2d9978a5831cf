import { Box, Card, Typography } from '@mui/material';
import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { useTranslation } from 'react-i18next';
import { useScreen } from '../lib/screen';

/** Empty state for a console screen that has not been built yet. */
export default function ComingSoon() {
  const { t } = useTranslation();
  const screen = useScreen();
  const title = screen ? t(screen.title ?? `menu.${screen.id}`) : '';
  return (
    <Card data-testid="coming-soon" sx={{ py: { xs: 6, md: 10 }, px: 3, textAlign: 'center' }}>
      <Box
        sx={{
          width: 88,
          height: 88,
          mx: 'auto',
          mb: 3,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: (th) => (th.palette.mode === 'dark' ? 'rgba(124,156,255,0.12)' : 'rgba(59,91,219,0.08)'),
          color: 'primary.main',
        }}
      >
        <ConstructionOutlined sx={{ fontSize: 44 }} />
      </Box>
      <Typography variant="h5" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440, mx: 'auto' }}>
        {t('comingSoon.body')}
      </Typography>
    </Card>
  );
}
