import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import GitHub from '@mui/icons-material/GitHub';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import WorkspacesOutlined from '@mui/icons-material/WorkspacesOutlined';
import QrCode2 from '@mui/icons-material/QrCode2';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { showError } from '../../lib/toast';
import { useAppSelector } from '../../store';
import { githubAuthorizeUrl, larkAuthorizeUrl, linuxdoAuthorizeUrl } from '../../lib/oauth-urls';
import { WeChatDialog } from './WeChatDialog';

const BUTTON = {
  variant: 'outlined',
  color: 'inherit',
  size: 'large',
  sx: { borderColor: 'divider', '&:hover': { borderColor: 'text.secondary', bgcolor: 'action.hover' } },
} as const;

async function getState(): Promise<string | null> {
  try {
    return await api<string>('/api/oauth/state');
  } catch (e) {
    showError(e);
    return null;
  }
}

/** Third-party sign-in buttons, each shown only when its status flag is on. */
export function OAuthButtons({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t } = useTranslation('auth');
  const site = useAppSelector((s) => s.siteInfo);
  const [wechat, setWechat] = useState(false);

  const github = async () => {
    const state = await getState();
    if (state) window.location.href = githubAuthorizeUrl(site.github_client_id, state);
  };
  const oidc = async () => {
    try {
      window.location.href = await api<string>('/api/oauth/endpoint');
    } catch (e) {
      showError(e);
    }
  };
  const lark = async () => {
    const state = await getState();
    if (state) window.open(larkAuthorizeUrl(site.lark_client_id, state, window.location.origin));
  };
  const linuxdo = async () => {
    const state = await getState();
    if (state) window.open(linuxdoAuthorizeUrl(site.linuxdo_client_id ?? '', state));
  };

  return (
    <Stack spacing={1.2}>
      {site.github_oauth && (
        <Button {...BUTTON} startIcon={<GitHub />} onClick={() => void github()}>
          {t('withGithub')}
        </Button>
      )}
      {site.wechat_login && (
        <Button {...BUTTON} startIcon={<QrCode2 />} onClick={() => setWechat(true)}>
          {t('withWechat')}
        </Button>
      )}
      {site.lark_login && (
        <Button {...BUTTON} startIcon={<WorkspacesOutlined />} onClick={() => void lark()}>
          {t('withLark')}
        </Button>
      )}
      {site.oidc_auth && (
        <Button {...BUTTON} startIcon={<VpnKeyOutlined />} onClick={() => void oidc()}>
          {t('withOidc')}
        </Button>
      )}
      {site.linuxdo_oauth && (
        <Button {...BUTTON} startIcon={<ForumOutlined />} onClick={() => void linuxdo()}>
          {t('withLinuxdo')}
        </Button>
      )}
      {site.wechat_login && <WeChatDialog open={wechat} onClose={() => setWechat(false)} onLoggedIn={onLoggedIn} />}
    </Stack>
  );
}
