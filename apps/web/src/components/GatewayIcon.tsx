import { useState } from 'react';
import { Box } from '@mui/material';
import Payment from '@mui/icons-material/Payment';

/** A payment gateway's icon; a missing or broken image falls back to a generic card icon. */
export default function GatewayIcon({ src }: { src: string }) {
  const [broken, setBroken] = useState(false);
  if (!src || broken) return <Payment data-testid="gateway-icon-fallback" sx={{ width: 24, height: 24, color: 'text.secondary' }} />;
  return <Box component="img" src={src} alt="" onError={() => setBroken(true)} sx={{ width: 24, height: 24, objectFit: 'contain' }} />;
}
