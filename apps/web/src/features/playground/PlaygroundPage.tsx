import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Button, Card, CircularProgress, Tab, Tabs, Typography } from '@mui/material';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { buildChatLinks, fillChatLink } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useAppSelector } from '../../store';
import { FRAME_SANDBOX } from '../../lib/frame';
import ChatPanel from './components/ChatPanel';

/**
 * The built-in streaming chat, then one tab per visible chat client opened with the playground key
 * (console-screens §2.10: tab 0 loads first).
 */
export default function PlaygroundPage() {
  const { t } = useTranslation('playground');
  const site = useAppSelector((s) => s.siteInfo);
  const user = useAppSelector((s) => s.account.user);
  const [tab, setTab] = useState(0);
  const links = useMemo(() => buildChatLinks({ chatLinks: site.chat_links, chatLink: site.chat_link, visibleOnly: true }), [site.chat_links, site.chat_link]);
  const key = useQuery({ queryKey: ['playground-key'], queryFn: () => api<string>('/api/token/playground'), enabled: Boolean(user) && tab > 0, retry: false });
  const server = site.server_address || window.location.host;

  if (!user) {
    // Signed out it shows on the public layout: keep the card off the top bar and the page edges.
    return (
      <Box data-testid="playground-signed-out" sx={{ px: 2, py: 4 }}>
        <Card data-testid="playground-empty" sx={{ py: 8, px: 2, textAlign: 'center', maxWidth: 640, mx: 'auto' }}>
          <ForumOutlined color="disabled" sx={{ fontSize: 52, mb: 1 }} />
          <Typography variant="h6">{t('title')}</Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('signInFirst')}
          </Typography>
          <Button variant="contained" component={RouterLink} to="/login">
            {t('signIn')}
          </Button>
        </Card>
      </Box>
    );
  }
  const link = tab > 0 ? links[tab - 1] : undefined;
  return (
    <Box>
      {links.length > 0 && (
        <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} variant="scrollable" scrollButtons="auto" sx={{ mb: 1 }}>
          <Tab label={t('chat')} />
          {links.map((l) => (
            <Tab key={l.name} label={l.name} />
          ))}
        </Tabs>
      )}
      {/* the chat stays mounted behind the client tabs so the conversation survives a look at them */}
      <Box sx={{ display: link ? 'none' : 'block' }}>
        <ChatPanel />
      </Box>
      {!link ? null : key.isLoading ? (
        <Card sx={{ display: 'grid', placeItems: 'center', gap: 2, py: 8 }}>
          <CircularProgress />
          <Typography color="text.secondary">{t('loading')}</Typography>
        </Card>
      ) : !key.data ? (
        <Card data-testid="playground-empty" sx={{ py: 8, textAlign: 'center' }}>
          <Typography variant="h6">{t('unavailable')}</Typography>
        </Card>
      ) : (
        <Box component="iframe" title={link.name} sandbox={FRAME_SANDBOX} src={fillChatLink(link.url, key.data, server)} sx={{ width: '100%', height: '85vh', border: 0, borderRadius: 3, bgcolor: 'background.paper' }} />
      )}
    </Box>
  );
}
