import { Box, Typography } from '@mui/material';
import type { AuditEntry } from '@one-hub/contract';
import { diffLines } from './audit-data';

/** The changed fields of one entry, before → after (secrets arrive masked). */
export default function DiffView({ diff, empty }: { diff: AuditEntry['diff']; empty: string }) {
  const lines = diffLines(diff);
  if (!lines.length) return <Typography variant="body2" color="text.secondary">{empty}</Typography>;
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, rowGap: 0.5, fontSize: 13 }}>
      {lines.map((l) => (
        <Box key={l.field} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontWeight: 600 }}>{l.field}</Box>
          <Box component="dd" sx={{ m: 0, fontFamily: 'monospace', wordBreak: 'break-all' }}>
            <Box component="span" sx={{ color: 'error.main' }}>{l.before}</Box>
            {' → '}
            <Box component="span" sx={{ color: 'success.main' }}>{l.after}</Box>
          </Box>
        </Box>
      ))}
    </Box>
  );
}
