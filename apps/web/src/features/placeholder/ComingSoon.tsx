import { Card, CardContent, Typography } from '@mui/material';
import ConstructionIcon from '@mui/icons-material/Construction';
import { useTranslation } from 'react-i18next';

/** Empty state for screens whose API exists but whose page is still to come. */
export default function ComingSoon({ screen }: { screen: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardContent sx={{ py: 8, textAlign: 'center' }}>
        <ConstructionIcon color="disabled" sx={{ fontSize: 56, mb: 2 }} />
        <Typography variant="h6" gutterBottom>
          {t(`menu.${screen}`)} · {t('comingSoon.title')}
        </Typography>
        <Typography color="text.secondary">{t('comingSoon.body')}</Typography>
      </CardContent>
    </Card>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Typography variant="h5" sx={{ p: 6, textAlign: 'center' }}>
      404 · {t('notFound.title')}
    </Typography>
  );
}
