import { useRef } from 'react';
import { Button, Card, Divider, Stack, Typography } from '@mui/material';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { useTranslation } from 'react-i18next';
import { buildChatLinks, fillChatLink, type ChatLink } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { showError } from '../../../lib/toast';
import { useAppSelector } from '../../../store';

/** Buttons opening each chat client (hidden ones too) with the playground key, fetched once on first click. */
export default function QuickStart() {
  const { t } = useTranslation('dashboard');
  const site = useAppSelector((s) => s.siteInfo);
  const key = useRef<string | null>(null);
  const links = buildChatLinks({ chatLinks: site.chat_links, chatLink: site.chat_link });
  const web = links.filter((l) => l.url.startsWith('http'));
  const apps = links.filter((l) => !l.url.startsWith('http'));

  const open = async (link: ChatLink) => {
    // open the tab inside the click so pop-up blockers allow it, then point it at the filled link
    const tab = window.open('about:blank', '_blank');
    try {
      key.current ??= await api<string>('/api/token/playground');
      const url = fillChatLink(link.url, key.current, site.server_address || window.location.host);
      if (tab) tab.location.href = url;
      else window.location.href = url;
    } catch (e) {
      tab?.close();
      showError(e);
    }
  };
  const button = (l: ChatLink) => (
    <Button key={l.name} variant="contained" endIcon={<OpenInNew />} onClick={() => void open(l)} sx={{ justifyContent: 'space-between' }}>
      {l.name}
    </Button>
  );
  return (
    <Card sx={{ p: 2.5 }} data-testid="quick-start">
      <Typography variant="h6">{t('quickStart')}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('quickStartHint')}
      </Typography>
      <Stack spacing={1}>
        {web.map(button)}
        {web.length > 0 && apps.length > 0 && <Divider sx={{ my: 0.5 }} />}
        {apps.map(button)}
      </Stack>
    </Card>
  );
}
