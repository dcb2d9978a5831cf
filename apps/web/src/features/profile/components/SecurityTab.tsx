import { Stack } from '@mui/material';
import PasskeysCard from './PasskeysCard';
import TwoFactorCard from './TwoFactorCard';

/** Two-factor and passkeys. */
export default function SecurityTab() {
  return (
    <Stack spacing={2}>
      <TwoFactorCard />
      <PasskeysCard />
    </Stack>
  );
}
