import { Alert, Card, CardContent, Container, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import RichContent from '../../components/RichContent';
import { STORAGE } from '../../lib/storage';
import { useCachedContent } from './use-cached-content';

export default function AboutPage() {
  const { t } = useTranslation('home');
  const { text, loaded, failed } = useCachedContent('/api/about', STORAGE.about);
  if (/^https?:\/\//.test(text.trim())) return <RichContent text={text} />;
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 6 }, minHeight: 'calc(100vh - 136px)' }}>
      {failed && !text && <Alert severity="error" sx={{ mb: 2 }}>{t('aboutFailed')}</Alert>}
      {text.trim() ? (
        <Card>
          <CardContent sx={{ p: { xs: 2.5, md: 4 } }}>
            <RichContent text={text} />
          </CardContent>
        </Card>
      ) : (
        loaded && (
          <Card>
            <CardContent sx={{ p: { xs: 2.5, md: 4 } }}>
              <Typography variant="h5" gutterBottom>
                {t('aboutTitle')}
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {t('aboutBody')}
              </Typography>
              <Link href="https://github.com/MartialBE/one-hub" target="_blank" rel="noopener noreferrer">
                https://github.com/MartialBE/one-hub
              </Link>
            </CardContent>
          </Card>
        )
      )}
    </Container>
  );
}
