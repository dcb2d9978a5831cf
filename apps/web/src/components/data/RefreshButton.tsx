import { IconButton, Tooltip } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';

/** A toolbar's reload icon; its label is both the tooltip and the accessible name. */
export function RefreshButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Tooltip title={label}>
      <IconButton onClick={onClick} aria-label={label}>
        <Refresh />
      </IconButton>
    </Tooltip>
  );
}
