import { useMemo } from 'react';
import { Box, useTheme } from '@mui/material';
import { create } from 'qrcode';

const FINDER = 7;

/** Whether (row, col) lies in one of the three 7×7 finder squares, drawn apart as rounded rings. */
function inFinder(row: number, col: number, size: number): boolean {
  const near = (v: number) => v < FINDER;
  const far = (v: number) => v >= size - FINDER;
  return (near(row) && near(col)) || (near(row) && far(col)) || (far(row) && near(col));
}

/** A dotted, primary-coloured QR code (console-screens §3.8), drawn as SVG so it stays sharp. */
export default function QrCode({ value, size = 256 }: { value: string; size?: number }) {
  const theme = useTheme();
  const color = theme.palette.primary.main;
  const matrix = useMemo(() => create(value, { errorCorrectionLevel: 'M' }).modules, [value]);
  const n = matrix.size;
  const dots: React.ReactNode[] = [];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (matrix.get(row, col) && !inFinder(row, col, n)) dots.push(<circle key={`${row}-${col}`} cx={col + 0.5} cy={row + 0.5} r={0.42} />);
    }
  }
  const finders = [
    [0, 0],
    [0, n - FINDER],
    [n - FINDER, 0],
  ].map(([y, x]) => (
    <g key={`${x}-${y}`}>
      <rect x={x + 0.5} y={y + 0.5} width={6} height={6} rx={1.6} fill="none" stroke={color} strokeWidth={1} />
      <rect x={x + 2} y={y + 2} width={3} height={3} rx={0.9} />
    </g>
  ));
  // A white quiet zone even in dark mode: scanners need the contrast.
  return (
    <Box sx={{ bgcolor: '#fff', p: 1.5, borderRadius: 2, lineHeight: 0, display: 'inline-block' }}>
      <svg width={size} height={size} viewBox={`-1 -1 ${n + 2} ${n + 2}`} fill={color} role="img" aria-label="QR code" data-testid="pay-qrcode" data-value={value}>
        {finders}
        {dots}
      </svg>
    </Box>
  );
}
