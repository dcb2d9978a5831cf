import { Accordion, AccordionDetails, AccordionSummary, Box, FormControlLabel, MenuItem, Switch, TextField, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';
import { CHANNEL_PLUGINS, type PluginValues } from './channel-plugins';

/** The chosen type's plugin blocks, each collapsible; switches for flags, text fields for the rest. */
export default function PluginFields({ type, value, onChange, disabled }: { type: number; value: PluginValues; onChange: (v: PluginValues) => void; disabled?: boolean }) {
  const { t } = useTranslation('channel');
  const blocks = CHANNEL_PLUGINS[type];
  if (!blocks) return null;
  const set = (block: string, name: string, v: unknown) => onChange({ ...value, [block]: { ...value[block], [name]: v } });
  return (
    <Box data-testid="channel-plugins">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('plugins')}
      </Typography>
      {blocks.map((b) => (
        <Accordion key={b.key} disableGutters variant="outlined" sx={{ '&:before': { display: 'none' } }}>
          <AccordionSummary expandIcon={<ExpandMore />}>
            <Typography variant="body2">{t(`plugin.${b.key}`, { defaultValue: b.key })}</Typography>
          </AccordionSummary>
          <AccordionDetails sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {b.params.map((p) => {
              const v = value[b.key]?.[p.name];
              const label = t(`pluginParam.${p.name}`, { defaultValue: p.name });
              if (p.kind === 'bool') return <FormControlLabel key={p.name} disabled={disabled} control={<Switch checked={v === true} onChange={(e) => set(b.key, p.name, e.target.checked)} />} label={label} />;
              if (p.kind === 'select')
                return (
                  <TextField key={p.name} select size="small" disabled={disabled} label={label} value={typeof v === 'string' ? v : ''} onChange={(e) => set(b.key, p.name, e.target.value)}>
                    {p.options.map((o) => (
                      <MenuItem key={o} value={o}>{o}</MenuItem>
                    ))}
                  </TextField>
                );
              return <TextField key={p.name} size="small" disabled={disabled} label={label} value={typeof v === 'string' ? v : ''} multiline={p.kind === 'json'} minRows={p.kind === 'json' ? 3 : undefined} onChange={(e) => set(b.key, p.name, e.target.value)} sx={p.kind === 'json' ? { gridColumn: '1 / -1' } : undefined} />;
            })}
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}
