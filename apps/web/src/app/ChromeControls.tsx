import { useState } from 'react';
import { IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import TranslateIcon from '@mui/icons-material/Translate';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../lib/i18n';
import type { Mode } from './theme';

/** Theme toggle and language menu shared by both top bars. */
export function ChromeControls({ mode, onToggleMode }: { mode: Mode; onToggleMode: () => void }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('nav.language')}>
        <IconButton color="inherit" aria-label={t('nav.language')} onClick={(e) => setAnchor(e.currentTarget)}>
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((l) => (
          <MenuItem
            key={l.code}
            selected={i18n.language === l.code}
            onClick={() => {
              void i18n.changeLanguage(l.code);
              setAnchor(null);
            }}
          >
            {l.label}
          </MenuItem>
        ))}
      </Menu>
      <Tooltip title={t('nav.theme')}>
        <IconButton color="inherit" aria-label={t('nav.theme')} data-testid="theme-toggle" onClick={onToggleMode}>
          {mode === 'light' ? <DarkModeIcon /> : <LightModeIcon />}
        </IconButton>
      </Tooltip>
    </>
  );
}
