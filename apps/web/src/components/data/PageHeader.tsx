import type { ReactNode } from 'react';
import { Box, Stack, Typography } from '@mui/material';

/**
 * A screen's subtitle and main buttons (wrapping on phones). The panel layout already shows the screen's
 * title above; pass `title` only where the page has none (public pages).
 */
export function PageHeader({ title, subtitle, actions }: { title?: string; subtitle?: string; actions?: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2, justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'center' } }}>
      <Box>
        {title && (
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
        )}
        {subtitle && (
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        )}
      </Box>
      {actions && <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, '& > *': { m: '0 !important' } }}>{actions}</Stack>}
    </Stack>
  );
}
