import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Card, CardContent, CircularProgress, Tab, Tabs, Typography } from '@mui/material';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { useTranslation } from 'react-i18next';
import { buildChatLinks, fillChatLink } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useAppSelector } from '../../store';

/** Chat clients opened with the user's playground key (console-screens §2.10): visible links only. */
export default function PlaygroundPage() {
  const { t } = useTranslation('playground');
  const site = useAppSelector((s) => s.siteInfo);
  const user = useAppSelector((s) => s.account.user);
  const [tab, setTab] = useState(0);
  const key = useQuery({ queryKey: ['playground-key', user?.id], queryFn: () => api<string>('/api/token/playground'), enabled: Boolean(user), retry: false });
  const links = useMemo(() => buildChatLinks({ chatLinks: site.chat_links, chatLink: site.chat_link, visibleOnly: true }), [site.chat_links, site.chat_link]);
  const server = site.server_address || window.location.host;

  if (user && key.isLoading) {
    return (
      <Card sx={{ m: { xs: 0, md: 0 } }}>
        <CardContent sx={{ display: 'grid', placeItems: 'center', gap: 2, py: 8 }}>
          <CircularProgress />
          <Typography color="text.secondary">{t('loading')}</Typography>
        </CardContent>
      </Card>
    );
  }
  if (!user || !key.data || links.length === 0) {
    return (
      <Card data-testid="playground-empty" sx={{ py: 8, textAlign: 'center' }}>
        <ForumOutlined color="disabled" sx={{ fontSize: 52, mb: 1 }} />
        <Typography variant="h6">{t('unavailable')}</Typography>
        <Typography color="text.secondary">{user ? t('unavailableBody') : t('signInFirst')}</Typography>
      </Card>
    );
  }
  const current = links[Math.min(tab, links.length - 1)];
  return (
    <Box>
      {links.length > 1 && (
        <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} variant="scrollable" scrollButtons="auto" sx={{ mb: 1 }}>
          {links.map((l) => (
            <Tab key={l.name} label={l.name} />
          ))}
        </Tabs>
      )}
      <Box component="iframe" title={current.name} src={fillChatLink(current.url, key.data, server)} sx={{ width: '100%', height: '85vh', border: 0, borderRadius: 3, bgcolor: 'background.paper' }} />
    </Box>
  );
}
