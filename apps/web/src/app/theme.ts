import { createTheme } from '@mui/material/styles';

export type Mode = 'light' | 'dark';

/** The console's look: border radius 12 (console-spec §9), Roboto with system fallbacks. */
export function makeTheme(mode: Mode) {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'light' ? '#3f51b5' : '#8c9eff' },
      secondary: { main: '#00897b' },
      background: mode === 'light' ? { default: '#f4f6fb', paper: '#ffffff' } : { default: '#0f1420', paper: '#171e2e' },
    },
    shape: { borderRadius: 12 },
    typography: { fontFamily: 'Roboto, "Noto Sans SC", "PingFang SC", system-ui, -apple-system, "Segoe UI", sans-serif' },
    components: {
      MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
    },
  });
}
