import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import Logo from '../../components/Logo';

/** The centred card every sign-in screen sits in. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', px: 2, py: { xs: 4, md: 8 }, minHeight: 'calc(100vh - 136px)' }}>
      <Card sx={{ width: '100%', maxWidth: 460, boxShadow: (th) => (th.palette.mode === 'dark' ? 'none' : '0 12px 40px rgba(15,23,42,0.06)') }}>
        <CardContent sx={{ p: { xs: 3, sm: 4.5 } }}>
          <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
            <Logo compact />
          </Box>
          <Typography variant="h5" align="center" component="h1" gutterBottom>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" align="center" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
          {footer && <Box sx={{ mt: 3, textAlign: 'center', fontSize: 14 }}>{footer}</Box>}
        </CardContent>
      </Card>
    </Box>
  );
}
