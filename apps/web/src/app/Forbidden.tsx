import { Link } from 'react-router-dom';
import { Button, Card, Typography } from '@mui/material';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { useTranslation } from 'react-i18next';

/** What a non-admin sees on an admin screen typed into the address bar. */
export default function Forbidden() {
  const { t } = useTranslation();
  return (
    <Card data-testid="forbidden" sx={{ py: 8, px: 3, textAlign: 'center' }}>
      <LockOutlined color="warning" sx={{ fontSize: 52, mb: 2 }} />
      <Typography variant="h5" gutterBottom>
        {t('common.forbiddenTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('common.forbiddenBody')}
      </Typography>
      <Button component={Link} to="/panel/dashboard" variant="contained">
        {t('common.backToDashboard')}
      </Button>
    </Card>
  );
}
