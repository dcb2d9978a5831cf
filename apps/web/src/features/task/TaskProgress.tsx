import { Box, LinearProgress, Typography } from '@mui/material';

/** A task's progress as a bar with its percentage (red when it failed). */
export default function TaskProgress({ percent, failed }: { percent: number; failed?: boolean }) {
  const value = Math.max(0, Math.min(100, Number.isFinite(percent) ? percent : 0));
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 96 }} data-testid="task-progress">
      <LinearProgress variant="determinate" value={value} color={failed ? 'error' : value === 100 ? 'success' : 'primary'} sx={{ flex: 1, height: 6, borderRadius: 3 }} aria-label={`${value}%`} />
      <Typography variant="caption" color="text.secondary">
        {value}%
      </Typography>
    </Box>
  );
}
