import { useEffect, useMemo, useState } from 'react';
import { Alert, Autocomplete, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, InputAdornment, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Close from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { SERVICE_RATIO_CLASSES, type PriceEntry } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { formToPrice, priceToForm, validatePriceForm, type PriceFormErrors, type PriceFormState } from './price-form';
import { RMB_PER_RATE, USD_PER_RATE, entryToRate, type EntryUnit, type PriceUnit } from './price-logic';
import { AddRatioButton, RatioRows } from './RatioRows';

export type PriceDialogMode = { kind: 'single'; price?: PriceEntry; /** A new price for this model (from a "no price set" link). */ model?: string } | { kind: 'batch'; models?: string[]; price?: PriceEntry };

interface Props {
  mode: PriceDialogMode | null;
  prices: PriceEntry[];
  /** Models without a price: offered in the batch picker. */
  unpriced: string[];
  owners: { id: number; name: string }[];
  onClose: () => void;
  onSaved: () => void;
}

/** New / edit one price, or a batch of models sharing one price (console-screens §3.12). */
export default function PriceDialog({ mode, prices, unpriced, owners, onClose, onSaved }: Props) {
  const { t } = useTranslation('pricing');
  const [form, setForm] = useState<PriceFormState>(() => priceToForm());
  const [errors, setErrors] = useState<PriceFormErrors>({});
  const [saving, setSaving] = useState(false);
  const batch = mode?.kind === 'batch';
  const original = useMemo(() => (mode?.kind === 'batch' ? (mode.models ?? []) : mode?.price ? [mode.price.model] : []), [mode]);

  useEffect(() => {
    if (!mode) return;
    setErrors({});
    setForm(priceToForm({ ...(mode.kind === 'single' && mode.model ? { model: mode.model } : {}), ...mode.price, models: mode.kind === 'batch' ? (mode.models ?? []) : [] }));
  }, [mode]);

  const set = <K extends keyof PriceFormState>(k: K, v: PriceFormState[K]) => setForm((f) => ({ ...f, [k]: v }));
  const taken = useMemo(() => new Set(prices.map((p) => p.model).filter((m) => !original.includes(m))), [prices, original]);
  const options = useMemo(() => [...new Set([...original, ...unpriced])], [original, unpriced]);

  const save = async () => {
    const found = validatePriceForm(form, batch, taken);
    setErrors(found);
    if (Object.keys(found).length) return;
    const price = formToPrice(form);
    setSaving(true);
    try {
      if (batch) await api('/api/prices/multiple', { json: { original_models: original, models: form.models, price: { ...price, model: 'batch' } } });
      else if (mode?.kind === 'single' && mode.price) await api(`/api/prices/single/${encodeURIComponent(mode.price.model)}`, { method: 'PUT', json: { ...price, model: form.model.trim() } });
      else await api('/api/prices/single', { json: { ...price, model: form.model.trim() } });
      showSuccess(t('saved'));
      onSaved();
      onClose();
    } catch (e) {
      showError(e);
    } finally {
      setSaving(false);
    }
  };

  const err = (k: keyof PriceFormErrors) => (errors[k] ? t(errors[k]) : undefined);
  const unitLabel = form.entry === 'rate' ? t('rateLabel') : `${form.entry}(${form.unit}):`;
  /** The other side of the conversion, shown at the end of a price field. */
  const hint = (text: string) => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) return '';
    if (form.entry !== 'rate') return `${t('rateShort')} ${entryToRate(n, form.entry, form.unit)}`;
    const k = form.type === 'times' ? 1 : form.unit === 'M' ? 1000 : 1;
    return `$${+(n * USD_PER_RATE * k).toFixed(6)} / ¥${+(n * RMB_PER_RATE * k).toFixed(6)}`;
  };
  const priceField = (k: 'input' | 'output', label: string) => (
    <TextField
      label={label}
      name={k}
      type="number"
      value={form[k]}
      onChange={(e) => set(k, e.target.value)}
      error={Boolean(errors[k])}
      helperText={err(k)}
      slotProps={{
        htmlInput: { min: 0, step: 'any' },
        input: {
          startAdornment: <InputAdornment position="start">{unitLabel}</InputAdornment>,
          endAdornment: <InputAdornment position="end">{hint(form[k])}</InputAdornment>,
        },
      }}
    />
  );

  return (
    <Dialog open={mode !== null} onClose={onClose} maxWidth="sm" fullWidth data-testid="price-dialog">
      <DialogTitle>{mode?.price || (batch && original.length) ? t('editTitle') : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          {batch ? (
            <Autocomplete
              multiple
              freeSolo
              options={options}
              value={form.models}
              onChange={(_e, v) => set('models', [...new Set(v.map((m) => m.trim()).filter(Boolean))])}
              renderValue={(v, getItemProps) => v.map((m, index) => { const { key, ...p } = getItemProps({ index }); return <Chip key={key} size="small" label={m} {...p} />; })}
              renderInput={(params) => <TextField {...params} label={t('models')} error={Boolean(errors.models)} helperText={err('models')} />}
            />
          ) : (
            <TextField label={t('model')} name="model" value={form.model} onChange={(e) => set('model', e.target.value)} error={Boolean(errors.model)} helperText={err('model')} required />
          )}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField select label={t('type')} value={form.type} onChange={(e) => set('type', e.target.value as PriceFormState['type'])} error={Boolean(errors.type)} helperText={err('type')}>
              <MenuItem value="tokens">{t('byTokens')}</MenuItem>
              <MenuItem value="times">{t('byTimes')}</MenuItem>
            </TextField>
            <TextField select label={t('provider')} value={form.channel_type} onChange={(e) => set('channel_type', Number(e.target.value))} error={Boolean(errors.channel_type)} helperText={err('channel_type')}>
              {owners.map((o) => (
                <MenuItem key={o.id} value={o.id}>
                  {o.name}
                </MenuItem>
              ))}
            </TextField>
          </Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t('priceUnit')}
            </Typography>
            <ToggleButtonGroup size="small" exclusive value={form.entry} onChange={(_e, v: EntryUnit | null) => v && set('entry', v)}>
              <ToggleButton value="rate">{t('rate')}</ToggleButton>
              <ToggleButton value="USD">USD</ToggleButton>
              <ToggleButton value="RMB">RMB</ToggleButton>
            </ToggleButtonGroup>
            <ToggleButtonGroup size="small" exclusive value={form.unit} onChange={(_e, v: PriceUnit | null) => v && set('unit', v)}>
              <ToggleButton value="K">K</ToggleButton>
              <ToggleButton value="M">M</ToggleButton>
            </ToggleButtonGroup>
          </Stack>
          {priceField('input', form.type === 'times' ? t('perCall') : t('input'))}
          {form.type === 'tokens' && priceField('output', t('output'))}
          {form.type === 'tokens' && (
            <Box data-testid="price-tiers">
              <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
                <Box sx={{ flex: 1 }}>
                  <Typography variant="subtitle2">{t('tiers')}</Typography>
                  <Typography variant="caption" color="text.secondary">{t('tiersHelp')}</Typography>
                </Box>
                <Button size="small" startIcon={<Add />} onClick={() => set('tiers', [...form.tiers, { above: String((Number(form.tiers.at(-1)?.above) || 0) + 200000), input: form.input, output: form.output, extra: [] }])}>
                  {t('addTier')}
                </Button>
              </Stack>
              {errors.tiers && <Alert severity="error" sx={{ mb: 1 }}>{err('tiers')}</Alert>}
              <Stack spacing={1}>
                {form.tiers.map((x, i) => {
                  const edit = <K extends keyof PriceFormState['tiers'][number]>(k: K, v: PriceFormState['tiers'][number][K]) => set('tiers', form.tiers.map((y, j) => (j === i ? { ...y, [k]: v } : y)));
                  return (
                    <Box key={i} data-testid="price-tier-row" sx={{ pl: 1, borderLeft: 2, borderColor: 'divider' }}>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <TextField size="small" type="number" label={t('tierAboveField')} value={x.above} sx={{ flex: 1.3 }} onChange={(e) => edit('above', e.target.value)} slotProps={{ htmlInput: { min: 1, step: 1 } }} />
                        <TextField size="small" type="number" label={t('input')} value={x.input} sx={{ flex: 1 }} onChange={(e) => edit('input', e.target.value)} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                        <TextField size="small" type="number" label={t('output')} value={x.output} sx={{ flex: 1 }} onChange={(e) => edit('output', e.target.value)} slotProps={{ htmlInput: { min: 0, step: 'any' } }} />
                        <IconButton size="small" aria-label={t('removeTier')} onClick={() => set('tiers', form.tiers.filter((_y, j) => j !== i))}>
                          <Close fontSize="small" />
                        </IconButton>
                      </Stack>
                      <Box sx={{ mt: 1 }}>
                        <RatioRows rows={x.extra} onChange={(rows) => edit('extra', rows)} />
                        <AddRatioButton rows={x.extra} onChange={(rows) => edit('extra', rows)} label={t('addTierRatio')} />
                      </Box>
                    </Box>
                  );
                })}
              </Stack>
            </Box>
          )}
          <TextField select label={t('locked')} value={form.locked ? 1 : 0} onChange={(e) => set('locked', Number(e.target.value) === 1)} helperText={t('lockedHelp')}>
            <MenuItem value={0}>{t('unlocked')}</MenuItem>
            <MenuItem value={1}>{t('lockedYes')}</MenuItem>
          </TextField>
          <Box>
            <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
              <Typography variant="subtitle2" sx={{ flex: 1 }}>
                {t('extraRatios')}
              </Typography>
              <AddRatioButton rows={form.extra} onChange={(rows) => set('extra', rows)} label={t('addRatio')} />
            </Stack>
            {errors.extra && <Alert severity="error" sx={{ mb: 1 }}>{err('extra')}</Alert>}
            <RatioRows rows={form.extra} onChange={(rows) => set('extra', rows)} />
          </Box>
          <Box data-testid="service-ratios">
            <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
              <Box sx={{ flex: 1 }}>
                <Typography variant="subtitle2">{t('serviceRatios')}</Typography>
                <Typography variant="caption" color="text.secondary">{t('serviceRatiosHelp')}</Typography>
              </Box>
              <AddRatioButton rows={form.service} onChange={(rows) => set('service', rows)} label={t('addServiceRatio')} classes={SERVICE_RATIO_CLASSES} />
            </Stack>
            {errors.service && <Alert severity="error" sx={{ mb: 1 }}>{err('service')}</Alert>}
            <RatioRows rows={form.service} onChange={(rows) => set('service', rows)} classes={SERVICE_RATIO_CLASSES} labels="service" />
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" disabled={saving} onClick={() => void save()} data-testid="price-submit">
          {t('common:common.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
