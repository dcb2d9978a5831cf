import { lazy, Suspense, useMemo, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { CssBaseline, LinearProgress, ThemeProvider } from '@mui/material';
import { ToastProvider } from '../lib/toast';
import { SessionProvider, isAdmin, useSession } from '../lib/session';
import { makeTheme, type Mode } from './theme';
import { PanelLayout } from './PanelLayout';
import { PublicLayout } from './PublicLayout';
import { PANEL_SCREENS } from './menu';
import ComingSoon, { NotFound } from '../features/placeholder/ComingSoon';

const HomePage = lazy(() => import('../features/home/HomePage'));
const LoginPage = lazy(() => import('../features/login/LoginPage'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const TokenPage = lazy(() => import('../features/token/TokenPage'));

const SCREENS: Record<string, React.ComponentType> = { dashboard: DashboardPage, token: TokenPage };

function AdminOnly({ children }: { children: React.ReactNode }) {
  const { user } = useSession();
  return isAdmin(user) ? <>{children}</> : <Navigate to="/panel/dashboard" replace />;
}

export function App() {
  const [mode, setMode] = useState<Mode>(() => (localStorage.getItem('theme') === 'dark' ? 'dark' : 'light'));
  const theme = useMemo(() => makeTheme(mode), [mode]);
  const toggle = () => {
    const next = mode === 'light' ? 'dark' : 'light';
    localStorage.setItem('theme', next);
    setMode(next);
  };
  const chrome = { mode, onToggleMode: toggle };
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ToastProvider>
        <SessionProvider>
          <BrowserRouter>
            <Suspense fallback={<LinearProgress />}>
              <Routes>
                <Route element={<PublicLayout {...chrome} />}>
                  <Route path="/" element={<HomePage />} />
                  <Route path="/login" element={<LoginPage />} />
                  <Route path="/about" element={<ComingSoon screen="dashboard" />} />
                  <Route path="/404" element={<NotFound />} />
                </Route>
                <Route path="/panel" element={<PanelLayout {...chrome} />}>
                  <Route index element={<Navigate to="/panel/dashboard" replace />} />
                  {PANEL_SCREENS.map((s) => {
                    const Screen = SCREENS[s.id];
                    const page = Screen ? <Screen /> : <ComingSoon screen={s.id} />;
                    return <Route key={s.id} path={s.id} element={s.admin ? <AdminOnly>{page}</AdminOnly> : page} />;
                  })}
                  <Route path="*" element={<NotFound />} />
                </Route>
                <Route path="*" element={<Navigate to="/404" replace />} />
              </Routes>
            </Suspense>
          </BrowserRouter>
        </SessionProvider>
      </ToastProvider>
    </ThemeProvider>
  );
}
