import { useEffect, useState } from 'react';
import { Alert, Box, Button, Checkbox, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { groupByProvider } from './provider-groups';
import { DEFAULT_MAPPING_OPTIONS, applyMapping, readMapping, type MappingOptions } from './model-mapping';

interface Props {
  open: boolean;
  /** What the provider call needs: the form's type, key, base URL, other, proxy (and id for the stored key). */
  request: { id?: number; type: number; key: string; base_url: string; other: string; proxy: string };
  onClose: () => void;
  /** The form's current mapping text: the generator adds to it. */
  mappingText: string;
  /** `mapping`: the new mapping when "add to model mapping" is on. */
  onApply: (models: string[], overwrite: boolean, mapping?: Record<string, string>) => void;
}

/** "Get model list from provider": asks the provider, then adds (or replaces with) the checked models. */
export default function ProviderModelsDialog({ open, request, mappingText, onClose, onApply }: Props) {
  const { t } = useTranslation('channel');
  const [models, setModels] = useState<string[] | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  const [filter, setFilter] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const [mapOn, setMapOn] = useState(false);
  const [mapOpts, setMapOpts] = useState<MappingOptions>(DEFAULT_MAPPING_OPTIONS);
  const preview = mapOn ? applyMapping([...chosen], mapOpts, readMapping(mappingText)) : null;
  const setOpt = <K extends keyof MappingOptions>(k: K, v: MappingOptions[K]) => setMapOpts((o) => ({ ...o, [k]: v }));

  // "OpenAI mode": list an OpenAI-compatible endpoint of the admin's choice instead of the type's own.
  const [openaiMode, setOpenaiMode] = useState(false);
  const [openaiBase, setOpenaiBase] = useState('');
  const load = async () => {
    setLoading(true);
    setError('');
    try {
      const body = openaiMode ? { ...request, id: undefined, type: 1, base_url: openaiBase.trim() } : request;
      const list = await api<string[]>('/api/channel/provider_models_list', { json: body });
      setModels(list);
      setChosen(new Set(list));
    } catch (e) {
      setError(describeError(e, t).text);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    if (open) void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one provider call per opening
  }, [open]);
  const shown = (models ?? []).filter((m) => m.toLowerCase().includes(filter.trim().toLowerCase()));
  const toggle = (m: string) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(m)) n.delete(m);
      else n.add(m);
      return n;
    });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t('providerModels')}</DialogTitle>
      <DialogContent dividers>
        {loading && (
          <Stack sx={{ alignItems: 'center', py: 4 }}>
            <CircularProgress />
          </Stack>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 1.5, alignItems: { sm: 'center' } }}>
          <FormControlLabel control={<Switch checked={openaiMode} onChange={(e) => setOpenaiMode(e.target.checked)} />} label={t('openaiMode')} />
          {openaiMode && <TextField size="small" label={t('baseUrl')} value={openaiBase} onChange={(e) => setOpenaiBase(e.target.value)} placeholder="https://api.openai.com" sx={{ flex: 1 }} />}
          {openaiMode && (
            <Button size="small" variant="outlined" onClick={() => void load()} disabled={loading || !openaiBase.trim()}>
              {t('refetch')}
            </Button>
          )}
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
        {models && !loading && (
          <Stack spacing={1.5}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <TextField size="small" placeholder={t('searchModels')} value={filter} onChange={(e) => setFilter(e.target.value)} sx={{ flex: 1, minWidth: 160 }} />
              <Button size="small" onClick={() => setChosen(new Set(models))}>{t('selectAll')}</Button>
              <Button size="small" onClick={() => setChosen(new Set(models.filter((m) => !chosen.has(m))))}>{t('invert')}</Button>
              <Button size="small" onClick={() => setChosen(new Set())}>{t('selectNone')}</Button>
            </Stack>
            {models.length === 0 && <Alert severity="info">{t('noProviderModels')}</Alert>}
            <Box sx={{ maxHeight: 340, overflow: 'auto' }}>
              {groupByProvider(shown).map(([provider, list]) => {
                const all = list.every((m) => chosen.has(m));
                return (
                  <Box key={provider} sx={{ mb: 1 }}>
                    <FormControlLabel
                      control={<Checkbox size="small" checked={all} indeterminate={!all && list.some((m) => chosen.has(m))} onChange={() => setChosen((c) => { const n = new Set(c); for (const m of list) if (all) n.delete(m); else n.add(m); return n; })} />}
                      label={`${provider} (${list.length})`}
                      sx={{ '& .MuiFormControlLabel-label': { fontWeight: 700, fontSize: 14 } }}
                    />
                    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, pl: 3 }}>
                      {list.map((m) => (
                        <FormControlLabel key={m} control={<Checkbox size="small" checked={chosen.has(m)} onChange={() => toggle(m)} />} label={m} sx={{ '& .MuiFormControlLabel-label': { fontSize: 14, wordBreak: 'break-all' } }} />
                      ))}
                    </Box>
                  </Box>
                );
              })}
            </Box>
            <FormControlLabel control={<Switch checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />} label={t('overwriteModels')} />
            <FormControlLabel control={<Switch checked={mapOn} onChange={(e) => setMapOn(e.target.checked)} data-testid="mapping-switch" />} label={t('addToMapping')} />
            {mapOn && preview && (
              <Stack spacing={1} sx={{ pl: 1, borderLeft: 3, borderColor: 'divider' }}>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                  <TextField size="small" label={t('removePrefix')} value={mapOpts.removePrefix} onChange={(e) => setOpt('removePrefix', e.target.value)} />
                  <TextField size="small" label={t('removeSuffix')} value={mapOpts.removeSuffix} onChange={(e) => setOpt('removeSuffix', e.target.value)} />
                </Stack>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
                  {(['lastSegment', 'plus', 'lowercase', 'skipMapped', 'overwrite'] as const).map((k) => (
                    <FormControlLabel key={k} control={<Checkbox size="small" checked={mapOpts[k]} onChange={(e) => setOpt(k, e.target.checked)} />} label={t(`mapping.${k}`)} />
                  ))}
                </Box>
                <Box component="pre" data-testid="mapping-preview" sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, maxHeight: 160, overflow: 'auto' }}>
                  {JSON.stringify(preview.mapping, null, 2)}
                </Box>
              </Stack>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={!models || chosen.size === 0}
          onClick={() => {
            if (preview) onApply(preview.names, overwrite, preview.mapping);
            else onApply([...chosen], overwrite);
            onClose();
          }}
        >
          {t('applyModels', { count: chosen.size })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
