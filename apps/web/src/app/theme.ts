import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from '../store/customization';

/** Console look: MUI with the customization's radius (12) and font, light and dark palettes. */
export function makeTheme(mode: ThemeMode, borderRadius: number, fontFamily: string): Theme {
  const dark = mode === 'dark';
  return createTheme({
    palette: {
      mode,
      primary: { main: dark ? '#7c9cff' : '#3b5bdb' },
      secondary: { main: dark ? '#b197fc' : '#7048e8' },
      background: dark ? { default: '#0d1117', paper: '#161b26' } : { default: '#f3f5fa', paper: '#ffffff' },
      divider: dark ? 'rgba(255,255,255,0.09)' : 'rgba(15,23,42,0.08)',
    },
    shape: { borderRadius },
    typography: {
      fontFamily,
      h4: { fontWeight: 700 },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiListItemButton: { styleOverrides: { root: { borderRadius } } },
      MuiTooltip: { defaultProps: { arrow: true } },
    },
  });
}
