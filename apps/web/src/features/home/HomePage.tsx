import { Link } from 'react-router-dom';
import { Alert, Box, Button, Container, Stack, Typography } from '@mui/material';
import GitHub from '@mui/icons-material/GitHub';
import ArrowForward from '@mui/icons-material/ArrowForwardRounded';
import { useTranslation } from 'react-i18next';
import RichContent from '../../components/RichContent';
import { STORAGE } from '../../lib/storage';
import { useAppSelector } from '../../store';
import { useCachedContent } from './use-cached-content';

const REPO = 'https://github.com/MartialBE/one-hub';

function Hero() {
  const { t } = useTranslation('home');
  const user = useAppSelector((s) => s.account.user);
  return (
    <Box
      sx={{
        minHeight: 'calc(100vh - 136px)',
        display: 'grid',
        placeItems: 'center',
        px: 2,
        background: 'linear-gradient(135deg, #ff6b35 0%, #f03e3e 55%, #c2255c 100%)',
        color: '#fff',
      }}
    >
      <Container maxWidth="md" sx={{ textAlign: 'center', py: 8 }}>
        <Typography component="h1" sx={{ fontWeight: 900, fontSize: { xs: 44, md: 76 }, letterSpacing: -1.5, lineHeight: 1.05, mb: 3 }}>
          One Hub
        </Typography>
        <Stack spacing={0.5} sx={{ mb: 5, opacity: 0.95 }}>
          {(['line1', 'line2', 'line3'] as const).map((k) => (
            <Typography key={k} sx={{ fontSize: { xs: 17, md: 21 } }}>
              {t(k)}
            </Typography>
          ))}
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
          <Button component={Link} to={user ? '/panel' : '/login'} size="large" variant="contained" endIcon={<ArrowForward />} sx={{ bgcolor: '#fff', color: '#c92a2a', '&:hover': { bgcolor: '#fff5f5' } }}>
            {user ? t('openConsole') : t('getStarted')}
          </Button>
          <Button href={REPO} target="_blank" rel="noopener noreferrer" size="large" variant="contained" startIcon={<GitHub />} sx={{ bgcolor: '#212529', '&:hover': { bgcolor: '#000' } }}>
            GitHub
          </Button>
        </Stack>
      </Container>
    </Box>
  );
}

export default function HomePage() {
  const { t } = useTranslation('home');
  const { text, loaded, failed } = useCachedContent('/api/home_page_content', STORAGE.homePageContent);
  if (failed && !text) return <Alert severity="error" sx={{ m: 3 }}>{t('loadFailed')}</Alert>;
  if (!text.trim()) return loaded ? <Hero /> : <Box sx={{ minHeight: 'calc(100vh - 136px)' }} />;
  return (
    <Box sx={{ minHeight: 'calc(100vh - 136px)' }}>
      {/^https?:\/\//.test(text.trim()) ? (
        <RichContent text={text} />
      ) : (
        <Container maxWidth="lg" sx={{ py: 4 }}>
          <RichContent text={text} />
        </Container>
      )}
    </Box>
  );
}
