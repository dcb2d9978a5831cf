import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Box } from '@mui/material';
import PageLoader from '../../../components/PageLoader';
import { PublicTopBar } from './PublicTopBar';
import { PublicFooter } from './PublicFooter';

/** Public pages: top bar (a popup menu below md), content, footer. */
export function PublicLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <PublicTopBar />
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0 }}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Box>
      <PublicFooter />
    </Box>
  );
}
