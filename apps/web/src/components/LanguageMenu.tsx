import { useState } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../lib/language';
import { STORAGE, writeString } from '../lib/storage';
import Flag from './Flag';

/** Flag button with the four languages; the choice is stored as `appLanguage`. */
export default function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = LANGUAGES.find((l) => l.code === i18n.language) ?? LANGUAGES[0];
  return (
    <>
      <Tooltip title={t('chrome.language')}>
        <IconButton color="inherit" aria-label={t('chrome.language')} data-testid="language-menu" onClick={(e) => setAnchor(e.currentTarget)}>
          <Flag code={current.code} />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((l) => (
          <MenuItem
            key={l.code}
            selected={l.code === current.code}
            onClick={() => {
              writeString(STORAGE.appLanguage, l.code);
              void i18n.changeLanguage(l.code);
              setAnchor(null);
            }}
          >
            <ListItemIcon>
              <Flag code={l.code} />
            </ListItemIcon>
            <ListItemText>{l.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
