import type { ReactNode } from 'react';
import { Chip, alpha, useTheme, type SxProps, type Theme } from '@mui/material';
import { copyText } from '../../lib/toast';

export type ChipColor = 'default' | 'primary' | 'secondary' | 'info' | 'success' | 'warning' | 'error' | 'orange';
export type ChipVariant = 'soft' | 'filled' | 'outlined' | 'ghost';

export interface StatusChipProps {
  label: ReactNode;
  color?: ChipColor;
  variant?: ChipVariant;
  /** Clicking copies this text (console-screens §0, §11). */
  copyText?: string;
  onClick?: () => void;
  size?: 'small' | 'medium';
  icon?: React.ReactElement;
  sx?: SxProps<Theme>;
  title?: string;
}

const ORANGE = '#f76707';

/** The spec's "Label" chip: eight colours, soft (default) / filled / outlined / ghost. */
export function StatusChip({ label, color = 'default', variant = 'soft', copyText: copy, onClick, size = 'small', icon, sx, title }: StatusChipProps) {
  const theme = useTheme();
  const main = color === 'default' ? theme.palette.text.secondary : color === 'orange' ? ORANGE : theme.palette[color].main;
  const look =
    variant === 'filled'
      ? { bgcolor: main, color: theme.palette.getContrastText(main) }
      : variant === 'outlined'
        ? { border: `1px solid ${main}`, color: main, bgcolor: 'transparent' }
        : variant === 'ghost'
          ? { border: `1px solid ${alpha(main, 0.4)}`, color: main, bgcolor: alpha(main, 0.06) }
          : { color: main, bgcolor: alpha(main, theme.palette.mode === 'dark' ? 0.2 : 0.12) };
  const click = copy ? () => void copyText(copy, typeof label === 'string' ? label : '') : onClick;
  return (
    <Chip
      label={label}
      size={size}
      icon={icon}
      title={title}
      onClick={click}
      data-color={color}
      sx={[{ ...look, fontWeight: 500, '& .MuiChip-icon': { color: 'inherit' }, cursor: click ? 'pointer' : 'default' }, ...(Array.isArray(sx) ? sx : [sx])]}
    />
  );
}
