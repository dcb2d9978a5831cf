import { Button, Stack, Typography } from '@mui/material';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import { useTranslation } from 'react-i18next';

/** The server's interactive API reference (/api/docs: Swagger UI over /api/openapi.json), in a new tab. */
export function ApiDocsLink() {
  const { t } = useTranslation('setting');
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <Button variant="outlined" href="/api/docs" target="_blank" rel="noopener" startIcon={<MenuBookOutlined />} data-testid="api-docs-link">
        {t('apiDocs')}
      </Button>
      <Typography variant="body2" color="text.secondary">
        {t('apiDocsHint')}
      </Typography>
    </Stack>
  );
}
