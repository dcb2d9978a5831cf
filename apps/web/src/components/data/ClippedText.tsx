import { Tooltip, Typography } from '@mui/material';
import { copyText } from '../../lib/toast';

/**
 * Long text cut to `max` characters with the whole of it in a tooltip; a click copies it
 * (console-screens §3.13, §3.16: prompts and failure reasons). Empty text shows `fallback`.
 */
export function ClippedText({ text, max = 30, label = '', fallback = '-' }: { text: string; max?: number; label?: string; fallback?: string }) {
  if (!text) return <>{fallback}</>;
  const chars = [...text];
  const shown = chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
  return (
    <Tooltip title={text} placement="top-start">
      <Typography component="span" variant="body2" onClick={() => void copyText(text, label)} sx={{ cursor: 'pointer', whiteSpace: 'nowrap' }}>
        {shown}
      </Typography>
    </Tooltip>
  );
}
