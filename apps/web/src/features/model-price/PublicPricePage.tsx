import { Box } from '@mui/material';
import ModelPricePage from './ModelPricePage';

/** The available-models page for visitors, inside the public layout, at most 1700 px wide (console-screens §2.11). */
export default function PublicPricePage() {
  return (
    <Box sx={{ maxWidth: 1700, mx: 'auto', px: { xs: 2, md: 3 }, py: 3 }}>
      <ModelPricePage showTitle />
    </Box>
  );
}
