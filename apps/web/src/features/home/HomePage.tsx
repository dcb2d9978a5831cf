import { Link } from 'react-router-dom';
import { Box, Button, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

export default function HomePage() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 6, md: 12 }, textAlign: 'center' }}>
      <Typography variant="h3" sx={{ fontWeight: 800, fontSize: { xs: 32, md: 48 } }} gutterBottom>
        {t('home.title')}
      </Typography>
      <Typography variant="h6" color="text.secondary" sx={{ mb: 4 }}>
        {t('home.subtitle')}
      </Typography>
      <Box>
        <Button component={Link} to="/panel" variant="contained" size="large">
          {t('home.start')}
        </Button>
      </Box>
    </Container>
  );
}
