import { useNavigate } from 'react-router-dom';
import { Box, Button, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBackRounded';
import { useTranslation } from 'react-i18next';

export default function NotFoundPage() {
  const { t } = useTranslation('not-found');
  const navigate = useNavigate();
  return (
    <Box data-testid="not-found" sx={{ display: 'grid', placeItems: 'center', textAlign: 'center', py: { xs: 8, md: 12 }, px: 2 }}>
      <Typography
        sx={{
          fontSize: { xs: 96, md: 140 },
          fontWeight: 900,
          lineHeight: 1,
          letterSpacing: -4,
          background: 'linear-gradient(135deg, #3b5bdb 0%, #7048e8 100%)',
          WebkitBackgroundClip: 'text',
          backgroundClip: 'text',
          color: 'transparent',
        }}
      >
        404
      </Typography>
      <Typography variant="h5" sx={{ mt: 2 }}>
        {t('title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 4 }}>
        {t('body')}
      </Typography>
      <Button variant="contained" size="large" startIcon={<ArrowBack />} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}>
        {t('back')}
      </Button>
    </Box>
  );
}
