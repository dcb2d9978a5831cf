import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Avatar, Divider, IconButton, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../../store';
import { signOut } from '../../../store/session';

/** Avatar button with "setting" (profile) and "sign out"; signing out goes to the root. */
export function UserMenu() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.account.user);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const name = user?.display_name || user?.username || '';
  return (
    <>
      <IconButton aria-label={t('chrome.userMenu')} data-testid="user-menu" onClick={(e) => setAnchor(e.currentTarget)} sx={{ p: 0.5 }}>
        <Avatar src={user?.avatar_url || undefined} sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 15 }}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { minWidth: 200 } } }}>
        <Typography variant="subtitle2" sx={{ px: 2, py: 1 }} noWrap>
          {name}
        </Typography>
        <Divider />
        <MenuItem component={Link} to="/panel/profile" onClick={() => setAnchor(null)}>
          <ListItemIcon>
            <SettingsOutlined fontSize="small" />
          </ListItemIcon>
          {t('chrome.setting')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void dispatch(signOut()).then(() => navigate('/'));
          }}
        >
          <ListItemIcon>
            <LogoutOutlined fontSize="small" />
          </ListItemIcon>
          {t('chrome.signOut')}
        </MenuItem>
      </Menu>
    </>
  );
}
