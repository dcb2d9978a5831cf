import { useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import RichContent from '../../components/RichContent';
import type { LatestRelease } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useAppSelector } from '../../store';
import { showError, showSuccess } from '../../lib/toast';

/**
 * Current version and "Check update": the latest release of this project's feed, read through the
 * server (GET /api/option/release/latest, RELEASE_FEED_URL). Without a configured feed there is
 * nothing honest to compare with, so the button is not shown.
 */
export function UpdateCheck() {
  const { t } = useTranslation('setting');
  const version = useAppSelector((s) => s.siteInfo.version) || t('unknownVersion');
  const hasFeed = useAppSelector((s) => Boolean(s.siteInfo.release_feed));
  const [release, setRelease] = useState<LatestRelease | null>(null);
  const [busy, setBusy] = useState(false);

  const check = async () => {
    setBusy(true);
    try {
      const latest = await api<LatestRelease>('/api/option/release/latest');
      if (latest.tag_name === version) showSuccess(t('alreadyLatest'));
      else setRelease(latest);
    } catch (e) {
      showError(e);
    }
    setBusy(false);
  };

  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <Typography>{t('currentVersion')}</Typography>
      <Chip label={version} color="primary" variant="outlined" data-testid="current-version" />
      {hasFeed && (
        <Button variant="outlined" onClick={() => void check()} disabled={busy} data-testid="check-update">
          {t('checkUpdate')}
        </Button>
      )}
      <Dialog open={Boolean(release)} onClose={() => setRelease(null)} maxWidth="md" fullWidth>
        <DialogTitle>{t('newRelease', { version: release?.tag_name ?? '' })}</DialogTitle>
        <DialogContent dividers>
          <Box>{release && <RichContent text={release.body || '-'} />}</Box>
        </DialogContent>
        <DialogActions>
          <Button color="inherit" onClick={() => setRelease(null)}>
            {t('common.close', { ns: 'common' })}
          </Button>
          {release?.html_url && (
            <Button variant="contained" href={release.html_url} target="_blank" rel="noopener noreferrer">
              {t('viewRelease')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
