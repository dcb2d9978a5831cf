import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Box, CircularProgress } from '@mui/material';
import { isAdminUser, isRootUser } from '../store/account';
import { useAppSelector } from '../store';
import type { Access } from '../lib/screen';
import Forbidden from './Forbidden';

export function Loading() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
      <CircularProgress size={32} />
    </Box>
  );
}

/**
 * Client-side access check. Protected pages wait until the stored user is known, then send signed-out
 * visitors to /login; admin (root) screens show a refusal to others; guest pages send users to /panel.
 */
export function Guard({ access, children }: { access: Access; children: ReactNode }) {
  const { user, userLoaded } = useAppSelector((s) => s.account);
  const { pathname } = useLocation();
  if (access === 'public') return <>{children}</>;
  if (access === 'guest') return user ? <Navigate to="/panel" replace /> : <>{children}</>;
  if (!user) return userLoaded ? <Navigate to="/login" replace state={{ from: pathname }} /> : <Loading />;
  if (access === 'admin' && !isAdminUser(user)) return <Forbidden />;
  if (access === 'root' && !isRootUser(user)) return <Forbidden />;
  return <>{children}</>;
}
