import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Card, Chip, Divider, Stack, Typography } from '@mui/material';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import GitHub from '@mui/icons-material/GitHub';
import QrCode2 from '@mui/icons-material/QrCode2';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import WorkspacesOutlined from '@mui/icons-material/WorkspacesOutlined';
import { useTranslation } from 'react-i18next';
import type { UnbindType, User } from '@one-hub/contract';
import { ConfirmDialog } from '../../../components/data';
import { api } from '../../../lib/api';
import { githubAuthorizeUrl, larkAuthorizeUrl, linuxdoAuthorizeUrl } from '../../../lib/oauth-urls';
import { showError, showSuccess } from '../../../lib/toast';
import { useAppSelector } from '../../../store';
import EmailBindDialog from './EmailBindDialog';
import WeChatBindDialog from './WeChatBindDialog';

interface Row {
  id: string;
  icon: ReactNode;
  name: string;
  bound: string;
  onBind?: () => void;
  unbind?: UnbindType;
}

/** Sign-in methods with bind and unbind buttons; each provider row only when the site enables it. */
export default function BindingsTab({ user, onChanged }: { user: User; onChanged: () => void }) {
  const { t } = useTranslation('profile');
  const site = useAppSelector((s) => s.siteInfo);
  const [dialog, setDialog] = useState<'email' | 'wechat' | null>(null);
  const [unbinding, setUnbinding] = useState<UnbindType | null>(null);
  const [busy, setBusy] = useState(false);

  const oauth = async (open: (state: string) => void) => {
    try {
      open(await api<string>('/api/oauth/state'));
    } catch (e) {
      showError(e);
    }
  };
  const rows: Row[] = [
    { id: 'email', icon: <EmailOutlined />, name: t('email'), bound: user.email, onBind: () => setDialog('email') },
    ...(site.wechat_login ? [{ id: 'wechat', icon: <QrCode2 />, name: t('wechat'), bound: user.wechat_id, onBind: () => setDialog('wechat'), unbind: 'wechat' as const }] : []),
    ...(site.github_oauth
      ? [{ id: 'github', icon: <GitHub />, name: 'GitHub', bound: user.github_id, onBind: () => void oauth((s) => window.open(githubAuthorizeUrl(site.github_client_id, s), '_blank')), unbind: 'github' as const }]
      : []),
    ...(site.lark_client_id
      ? [{ id: 'lark', icon: <WorkspacesOutlined />, name: t('lark'), bound: user.lark_id, onBind: () => void oauth((s) => window.open(larkAuthorizeUrl(site.lark_client_id, s, window.location.origin))), unbind: 'lark' as const }]
      : []),
    ...(site.linuxdo_oauth
      ? [{ id: 'linuxdo', icon: <VpnKeyOutlined />, name: 'LINUX DO', bound: user.linuxdo_id, onBind: () => void oauth((s) => window.open(linuxdoAuthorizeUrl(site.linuxdo_client_id ?? '', s))), unbind: 'linuxdo' as const }]
      : []),
    ...(site.oidc_auth ? [{ id: 'oidc', icon: <VpnKeyOutlined />, name: 'OIDC', bound: user.oidc_id, unbind: 'oidc' as const }] : []),
  ];

  const unbind = async () => {
    if (!unbinding) return;
    setBusy(true);
    try {
      await api('/api/user/unbind', { json: { type: unbinding } });
      showSuccess(t('unbound'));
      setUnbinding(null);
      onChanged();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack divider={<Divider />} spacing={1.5}>
        {rows.map((r) => (
          <Stack key={r.id} data-testid={`binding-${r.id}`} direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flex: 1, minWidth: 0 }}>
              <Box sx={{ color: 'text.secondary', display: 'flex' }}>{r.icon}</Box>
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>{r.name}</Typography>
                <Typography variant="body2" color="text.secondary" noWrap>
                  {r.bound ? t('boundAs', { value: r.bound }) : t('notBound')}
                </Typography>
              </Box>
            </Stack>
            <Stack direction="row" spacing={1}>
              {r.onBind && (
                <Button variant={r.bound ? 'outlined' : 'contained'} size="small" onClick={r.onBind}>
                  {r.bound ? t('change') : t('bind')}
                </Button>
              )}
              {r.unbind && r.bound && (
                <Button color="error" variant="outlined" size="small" onClick={() => setUnbinding(r.unbind!)}>
                  {t('unbind')}
                </Button>
              )}
            </Stack>
          </Stack>
        ))}
      </Stack>
      {site.telegram_bot && (
        <Alert severity="info" sx={{ mt: 2.5 }}>
          <Typography variant="body2">
            {t('telegramStep1')}{' '}
            <Chip size="small" color="primary" label={`@${site.telegram_bot}`} component="a" href={`https://t.me/${site.telegram_bot}`} target="_blank" rel="noopener" clickable />
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {t('telegramStep2')}
          </Typography>
        </Alert>
      )}
      <EmailBindDialog open={dialog === 'email'} onClose={() => setDialog(null)} onBound={onChanged} />
      <WeChatBindDialog open={dialog === 'wechat'} onClose={() => setDialog(null)} onBound={onChanged} />
      <ConfirmDialog open={unbinding !== null} title={t('unbind')} body={t('unbindWarning')} danger busy={busy} confirmText={t('unbind')} onConfirm={() => void unbind()} onClose={() => setUnbinding(null)} />
    </Card>
  );
}
