import { Suspense, useMemo } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { SnackbarProvider } from 'notistack';
import { ApiError, setUnauthorizedHandler } from '../lib/api';
import { MAX_TOASTS, ROOT_TOASTS } from '../lib/toast-options';
import { makeStore, useAppSelector } from '../store';
import { forgetUser } from '../store/session';
import CopyToast from '../components/CopyToast';
import PageLoader from '../components/PageLoader';
import NoticeDialog from '../components/NoticeDialog';
import { makeTheme } from './theme';
import { useStartup } from './use-startup';
import { AppRoutes } from './routes';

const store = makeStore();
// Any 401 from the console API drops the stored user and the account (console-spec §8).
setUnauthorizedHandler(() => store.dispatch(forgetUser()));
// One retry for a network or server failure; never for a 4xx (a 429 retried only digs the hole deeper).
const retry = (count: number, e: unknown) => count < 1 && !(e instanceof ApiError && e.status >= 400 && e.status < 500);
const queryClient = new QueryClient({ defaultOptions: { queries: { retry, refetchOnWindowFocus: false } } });

function Themed() {
  const { theme: mode, borderRadius, fontFamily } = useAppSelector((s) => s.customization);
  const theme = useMemo(() => makeTheme(mode, borderRadius, fontFamily), [mode, borderRadius, fontFamily]);
  useStartup();
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <SnackbarProvider maxSnack={MAX_TOASTS} {...ROOT_TOASTS} Components={{ copy: CopyToast }}>
        <Suspense fallback={<PageLoader />}>
          <AppRoutes />
          <NoticeDialog />
        </Suspense>
      </SnackbarProvider>
    </ThemeProvider>
  );
}

export function App() {
  return (
    <Provider store={store}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Themed />
        </BrowserRouter>
      </QueryClientProvider>
    </Provider>
  );
}
