import { useState } from 'react';
import { IconButton, ListItemIcon, Menu, MenuItem, Stack, Tooltip } from '@mui/material';
import Speed from '@mui/icons-material/Speed';
import EditOutlined from '@mui/icons-material/EditOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import ContentCopy from '@mui/icons-material/ContentCopy';
import LinkOff from '@mui/icons-material/LinkOff';
import OpenInNew from '@mui/icons-material/OpenInNew';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import type { Channel } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { ConfirmDialog } from '../../components/data';
import ChannelCheckDialog from './ChannelCheckDialog';
import { runTest } from './channel-cells';
import { providerConsole } from './channel-ui';
import { revealChannelKey } from './channel-api';
import { useStepUp } from '../../components/step-up/use-step-up';

interface Props {
  channel: Channel;
  /** Opened from a tag's sub-table: offers "remove from tag". */
  inTagTable?: boolean;
  onEdit: () => void;
  onChanged: () => void;
}

/** Keys the copy must not carry over (console-screens §3.3 "Copy (clone)"). */
const NOT_CLONED = ['id', 'test_time', 'balance_updated_time', 'used_quota', 'response_time', 'balance', 'created_time', 'disabled_reason'] as const;

/** Test (model menu), edit, and ⋮ (clone, remove from tag, delete) for one channel. */
export default function ChannelActions({ channel, inTagTable, onEdit, onChanged }: Props) {
  const { t } = useTranslation('channel');
  const [testMenu, setTestMenu] = useState<HTMLElement | null>(null);
  const [more, setMore] = useState<HTMLElement | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'untag' | null>(null);
  const [checking, setChecking] = useState(false);
  const models = channel.models.split(',').map((m) => m.trim()).filter(Boolean);
  const stepUp = useStepUp();

  const clone = async () => {
    try {
      // the copy needs the stored key: an explicit reveal, which an admin with two-factor or a passkey confirms first
      const { key } = await stepUp.run(() => revealChannelKey(channel.id));
      const full: Record<string, unknown> = { ...(await api<Channel>(`/api/channel/${channel.id}`)), key };
      for (const k of NOT_CLONED) delete full[k];
      for (const [k, v] of Object.entries(full)) if (v === null) delete full[k];
      full.name = `${channel.name}_copy`;
      await api('/api/channel/', { method: 'POST', json: full });
      showSuccess(t('cloned'));
      onChanged();
    } catch (e) {
      showError(e);
    }
  };
  const act = async () => {
    try {
      if (confirm === 'delete') await api(`/api/channel/${channel.id}`, { method: 'DELETE' });
      else await api(`/api/channel/${channel.id}/tag`, { method: 'DELETE' });
      showSuccess(confirm === 'delete' ? t('deleted') : t('untagged'));
      setConfirm(null);
      onChanged();
    } catch (e) {
      showError(e);
    }
  };

  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
      <Tooltip title={t('test')}>
        <IconButton size="small" aria-label={t('test')} data-testid="channel-test" onClick={(e) => (models.length > 1 ? setTestMenu(e.currentTarget) : void runTest(channel, models[0], t).then((s) => s !== null && onChanged()))}>
          <Speed fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={testMenu} open={Boolean(testMenu)} onClose={() => setTestMenu(null)}>
        {models.map((m) => (
          <MenuItem
            key={m}
            dense
            onClick={() => {
              setTestMenu(null);
              void runTest(channel, m, t).then((s) => s !== null && onChanged());
            }}
          >
            {m}
          </MenuItem>
        ))}
      </Menu>
      <Tooltip title={t('edit')}>
        <IconButton size="small" aria-label={t('edit')} data-testid="channel-edit" onClick={onEdit}>
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <IconButton size="small" aria-label={t('more')} onClick={(e) => setMore(e.currentTarget)}>
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={more} open={Boolean(more)} onClose={() => setMore(null)}>
        <MenuItem onClick={() => { setMore(null); void clone(); }}>
          <ListItemIcon><ContentCopy fontSize="small" /></ListItemIcon>
          {t('clone')}
        </MenuItem>
        <MenuItem onClick={() => { setMore(null); setChecking(true); }}>
          <ListItemIcon><FactCheckOutlined fontSize="small" /></ListItemIcon>
          {t('check.menu')}
        </MenuItem>
        {providerConsole(channel.type) && (
          <MenuItem component="a" href={providerConsole(channel.type)} target="_blank" rel="noopener noreferrer" onClick={() => setMore(null)}>
            <ListItemIcon><OpenInNew fontSize="small" /></ListItemIcon>
            {t('openProvider')}
          </MenuItem>
        )}
        {inTagTable && (
          <MenuItem onClick={() => { setMore(null); setConfirm('untag'); }}>
            <ListItemIcon><LinkOff fontSize="small" /></ListItemIcon>
            {t('removeFromTag')}
          </MenuItem>
        )}
        <MenuItem sx={{ color: 'error.main' }} onClick={() => { setMore(null); setConfirm('delete'); }}>
          <ListItemIcon><DeleteOutlined fontSize="small" color="error" /></ListItemIcon>
          {t('delete')}
        </MenuItem>
      </Menu>
      <ChannelCheckDialog channel={checking ? channel : null} onClose={() => setChecking(false)} />
      <ConfirmDialog
        open={confirm !== null}
        danger={confirm === 'delete'}
        title={confirm === 'delete' ? t('deleteTitle') : t('removeFromTag')}
        body={confirm === 'delete' ? t('deleteBody', { name: channel.name }) : undefined}
        confirmText={confirm === 'delete' ? t('delete') : undefined}
        onClose={() => setConfirm(null)}
        onConfirm={() => void act()}
      />
      {stepUp.dialog}
    </Stack>
  );
}
