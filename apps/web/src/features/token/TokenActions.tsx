import { useState, type ReactNode } from 'react';
import { Button, ButtonGroup, IconButton, ListItemIcon, Menu, MenuItem, Stack, Tooltip, useMediaQuery, useTheme } from '@mui/material';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import ContentCopy from '@mui/icons-material/ContentCopy';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import MoreHoriz from '@mui/icons-material/MoreHoriz';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { fillChatLink, withKeyPrefix, type ChatLink, type Token } from '@one-hub/contract';
import { copyText } from '../../lib/toast';

interface Props {
  token: Token;
  links: ChatLink[];
  server: string;
  /** Admin search mode shows only Copy and the ⋯ menu. */
  compact?: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

/** App schemes (ama://, opencat://) go through /jump so the browser leaves the console cleanly. */
function openLink(url: string) {
  const target = /^https?:\/\//i.test(url) ? url : `/jump?url=${encodeURIComponent(url)}`;
  window.open(target, '_blank', 'noopener');
}

function MenuButton({ label, icon, phone, testId, items }: { label: string; icon: ReactNode; phone: boolean; testId: string; items: { name: string; onClick: () => void }[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      {phone ? (
        <Tooltip title={label}>
          <IconButton size="small" aria-label={label} data-testid={testId} onClick={(e) => setAnchor(e.currentTarget)}>
            {icon}
          </IconButton>
        </Tooltip>
      ) : (
        <Button size="small" variant="outlined" data-testid={testId} startIcon={icon} endIcon={<ArrowDropDown />} onClick={(e) => setAnchor(e.currentTarget)}>
          {label}
        </Button>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {items.map((it) => (
          <MenuItem
            key={it.name}
            onClick={() => {
              setAnchor(null);
              it.onClick();
            }}
          >
            {it.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** Copy (split: key / chat-link URLs), Chat (open a client) and ⋯ (edit, delete) for one token row. */
export default function TokenActions({ token, links, server, compact, onEdit, onDelete }: Props) {
  const { t } = useTranslation('token');
  const theme = useTheme();
  // icons instead of labelled buttons until the screen is wide enough for the whole row
  const phone = useMediaQuery(theme.breakpoints.down('xl'));
  const [copyMenu, setCopyMenu] = useState<HTMLElement | null>(null);
  const [more, setMore] = useState<HTMLElement | null>(null);
  const key = withKeyPrefix(token.key);
  const filled = links.map((l) => ({ name: l.name, url: fillChatLink(l.url, token.key, server) }));

  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
      <ButtonGroup size="small" variant={phone ? 'outlined' : 'contained'}>
        <Button data-testid="token-copy" aria-label={t('copy')} startIcon={phone ? undefined : <ContentCopy fontSize="small" />} onClick={() => void copyText(key, t('key'))} sx={phone ? { px: 1, minWidth: 0 } : undefined}>
          {phone ? <ContentCopy fontSize="small" /> : t('copy')}
        </Button>
        <Button aria-label={t('copyLinks')} data-testid="token-copy-menu" onClick={(e) => setCopyMenu(e.currentTarget)} sx={{ px: 0.25, minWidth: 0 }}>
          <ArrowDropDown />
        </Button>
      </ButtonGroup>
      <Menu anchorEl={copyMenu} open={Boolean(copyMenu)} onClose={() => setCopyMenu(null)}>
        {filled.map((l) => (
          <MenuItem
            key={l.name}
            onClick={() => {
              setCopyMenu(null);
              void copyText(l.url, l.name);
            }}
          >
            {l.name}
          </MenuItem>
        ))}
      </Menu>
      {!compact && <MenuButton label={t('chat')} icon={<ChatOutlined fontSize="small" />} phone={phone} testId="token-chat" items={filled.map((l) => ({ name: l.name, onClick: () => openLink(l.url) }))} />}
      <IconButton size="small" aria-label={t('more')} data-testid="token-more" onClick={(e) => setMore(e.currentTarget)}>
        <MoreHoriz fontSize="small" />
      </IconButton>
      <Menu anchorEl={more} open={Boolean(more)} onClose={() => setMore(null)}>
        <MenuItem
          onClick={() => {
            setMore(null);
            onEdit();
          }}
        >
          <ListItemIcon>
            <EditOutlined fontSize="small" />
          </ListItemIcon>
          {t('edit')}
        </MenuItem>
        <MenuItem
          sx={{ color: 'error.main' }}
          onClick={() => {
            setMore(null);
            onDelete();
          }}
        >
          <ListItemIcon>
            <DeleteOutline fontSize="small" color="error" />
          </ListItemIcon>
          {t('delete')}
        </MenuItem>
      </Menu>
    </Stack>
  );
}
