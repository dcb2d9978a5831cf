import type { ReactNode } from 'react';
import { Box, Divider, Stack, Typography } from '@mui/material';

/** One titled block of a settings tab. */
export function SettingSection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Box component="section" data-testid={testId} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper' }}>
      <Typography variant="subtitle1" component="h3" sx={{ px: { xs: 2, sm: 2.5 }, py: 1.5, fontWeight: 700 }}>
        {title}
      </Typography>
      <Divider />
      <Stack spacing={2} sx={{ p: { xs: 2, sm: 2.5 } }}>
        {children}
      </Stack>
    </Box>
  );
}
