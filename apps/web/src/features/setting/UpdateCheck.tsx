import { useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import RichContent from '../../components/RichContent';
import { useAppSelector } from '../../store';
import { showError, showSuccess } from '../../lib/toast';

const REPO_API = 'https://api.github.com/repos/MartialBE/one-hub';

interface Release {
  tag_name: string;
  body: string;
  html_url: string;
}

/** Current version and "check update": the latest release for `v…` builds, the latest commit otherwise. */
export function UpdateCheck() {
  const { t } = useTranslation('setting');
  const version = useAppSelector((s) => s.siteInfo.version) || t('unknownVersion');
  const [release, setRelease] = useState<Release | null>(null);
  const [busy, setBusy] = useState(false);

  const check = async () => {
    setBusy(true);
    try {
      const release = version.startsWith('v');
      const res = await fetch(release ? `${REPO_API}/releases/latest` : `${REPO_API}/commits?per_page=1`);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body: unknown = await res.json();
      const latest: Release = release
        ? (body as Release)
        : (() => {
            const c = (body as Array<{ sha: string; html_url: string; commit: { message: string } }>)[0];
            return { tag_name: c.sha.slice(0, 7), body: c.commit.message, html_url: c.html_url };
          })();
      if (latest.tag_name === version || (!release && version.includes(latest.tag_name))) showSuccess(t('alreadyLatest'));
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
      <Button variant="outlined" onClick={() => void check()} disabled={busy}>
        {t('checkUpdate')}
      </Button>
      <Dialog open={Boolean(release)} onClose={() => setRelease(null)} maxWidth="md" fullWidth>
        <DialogTitle>{t('newRelease', { version: release?.tag_name ?? '' })}</DialogTitle>
        <DialogContent dividers>
          <Box>{release && <RichContent text={release.body || '-'} />}</Box>
        </DialogContent>
        <DialogActions>
          <Button color="inherit" onClick={() => setRelease(null)}>
            {t('common.close', { ns: 'common' })}
          </Button>
          <Button variant="contained" href={release?.html_url ?? '#'} target="_blank" rel="noopener noreferrer">
            {t('viewOnGithub')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
