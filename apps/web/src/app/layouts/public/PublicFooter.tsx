import { useMemo } from 'react';
import { Box, Container, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../../lib/content';
import { buildLabel } from '../../../lib/version';
import { useAppSelector } from '../../../store';

const REPO = 'https://github.com/MartialBE/one-hub';

/** The site's footer HTML (sanitised), or the default credit line with the licence link. */
export function PublicFooter() {
  const { t } = useTranslation();
  const { footer_html, system_name, isLoading } = useAppSelector((s) => s.siteInfo);
  const html = useMemo(() => (footer_html ? sanitizeHtml(footer_html) : ''), [footer_html]);
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 2.5, minHeight: 64, bgcolor: 'background.paper' }}>
      <Container maxWidth="xl" sx={{ textAlign: 'center', color: 'text.secondary', fontSize: 14 }}>
        {isLoading ? null : html ? (
          <Box data-testid="custom-footer" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <Typography variant="body2" component="div" data-testid="default-footer">
            <Link href={REPO} target="_blank" rel="noopener noreferrer" underline="hover">
              {system_name} {buildLabel()}
            </Link>{' '}
            · {t('footer.basedOn')}{' '}
            <Link href="https://github.com/songquanpeng/one-api" target="_blank" rel="noopener noreferrer" underline="hover">
              One API
            </Link>{' '}
            ·{' '}
            <Link href="https://opensource.org/licenses/mit-license.php" target="_blank" rel="noopener noreferrer" underline="hover">
              {t('footer.license')}
            </Link>
          </Typography>
        )}
      </Container>
    </Box>
  );
}
