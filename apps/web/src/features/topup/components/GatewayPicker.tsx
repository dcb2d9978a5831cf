import { Box, Button } from '@mui/material';
import type { PublicGateway } from '@one-hub/contract';
import GatewayIcon from '../../../components/GatewayIcon';

/** One outlined button per payment gateway (icon + name); the chosen one has a primary border. */
export default function GatewayPicker({ gateways, value, onChange, columns = 2 }: { gateways: PublicGateway[]; value: string; onChange: (uuid: string) => void; columns?: number }) {
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: `repeat(${columns}, 1fr)` } }} data-testid="gateway-picker">
      {gateways.map((g) => (
        <Button
          key={g.uuid}
          variant="outlined"
          color={g.uuid === value ? 'primary' : 'inherit'}
          onClick={() => onChange(g.uuid)}
          aria-pressed={g.uuid === value}
          startIcon={g.icon ? <GatewayIcon src={g.icon} /> : undefined}
          sx={{ justifyContent: 'flex-start', py: 1.25, borderWidth: g.uuid === value ? 2 : 1, borderColor: g.uuid === value ? 'primary.main' : 'divider' }}
        >
          {g.name}
        </Button>
      ))}
    </Box>
  );
}
