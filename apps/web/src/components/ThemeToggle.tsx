import { IconButton, Tooltip } from '@mui/material';
import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../store';
import { setTheme } from '../store/customization';
import { STORAGE, writeString } from '../lib/storage';

export default function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useAppSelector((s) => s.customization.theme);
  const dispatch = useAppDispatch();
  const label = mode === 'light' ? t('chrome.darkMode') : t('chrome.lightMode');
  return (
    <Tooltip title={label}>
      <IconButton
        color="inherit"
        aria-label={label}
        data-testid="theme-toggle"
        onClick={() => {
          const next = mode === 'light' ? 'dark' : 'light';
          writeString(STORAGE.theme, next);
          dispatch(setTheme(next));
        }}
      >
        {mode === 'light' ? <DarkModeOutlined /> : <LightModeOutlined />}
      </IconButton>
    </Tooltip>
  );
}
