import { useEffect, useMemo, useState } from 'react';
import { Alert, Autocomplete, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, IconButton, InputAdornment, MenuItem, Stack, Switch, TextField, Tooltip, useMediaQuery, useTheme } from '@mui/material';
import Visibility from '@mui/icons-material/VisibilityOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CHANNEL_TYPES, CHANNEL_TYPE_BY_ID, type Channel } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { JsonField } from '../../components/data';
import { BASE_URL_REQUIRED, NUMBER_MIN, OTHER_FIELD, changeType, channelToForm, formToBody, validateChannelForm, type ChannelFormErrors, type ChannelFormState } from './channel-form';
import KeyValueField from './KeyValueField';
import ModelsField from './ModelsField';
import PluginFields from './PluginFields';
import ProviderModelsDialog from './ProviderModelsDialog';
import { useChannelLookups } from './use-channel-lookups';
import { useStepUp } from '../../components/step-up/use-step-up';
import { revealChannelKey } from './channel-api';

export type ChannelDialogMode = { kind: 'create' } | { kind: 'edit'; id: number } | { kind: 'tag'; tag: string };

interface Props {
  mode: ChannelDialogMode | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Fields a tag member shares with its tag: edited through the tag only. */
const TAG_SHARED = ['type', 'group', 'models', 'model_mapping', 'model_headers', 'custom_parameter', 'disabled_stream', 'proxy', 'test_model', 'only_chat', 'pre_cost', 'compatible_response', 'allow_extra_body', 'plugin'] as const;

async function load(mode: ChannelDialogMode): Promise<Channel | null> {
  if (mode.kind === 'edit') return api<Channel>(`/api/channel/${mode.id}`);
  if (mode.kind === 'tag') return api<Channel>(`/api/channel_tag/${encodeURIComponent(mode.tag)}`);
  return null;
}

/** Create, edit or tag-edit a channel (console-screens §3.3). */
export default function ChannelDialog({ mode, onClose, onSaved }: Props) {
  const { t } = useTranslation('channel');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const lookups = useChannelLookups();
  const open = mode !== null;
  const kind = mode?.kind ?? 'create';
  // a tag's answer and "show key" carry full keys: an admin with two-factor or a passkey confirms first
  const stepUp = useStepUp();
  const loaded = useQuery({ queryKey: ['channel-edit', mode], queryFn: () => stepUp.run(() => load(mode!)), enabled: open && kind !== 'create', retry: false, gcTime: 0 });
  const [form, setForm] = useState<ChannelFormState>(() => channelToForm());
  const [errors, setErrors] = useState<ChannelFormErrors>({});
  const [saving, setSaving] = useState(false);
  const [fetching, setFetching] = useState(false);
  const [revealing, setRevealing] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    const next = channelToForm(kind === 'create' ? null : loaded.data);
    // an edit starts with an empty key field (the detail has no key): left empty, the stored key stays
    setForm(kind === 'edit' ? { ...next, key: '' } : next);
  }, [open, kind, loaded.data]);

  const revealKey = async () => {
    setRevealing(true);
    try {
      const { key } = await stepUp.run(() => revealChannelKey((mode as { id: number }).id));
      setForm((f) => ({ ...f, key }));
    } catch (e) {
      showError(e);
    } finally {
      setRevealing(false);
    }
  };

  const set = <K extends keyof ChannelFormState>(k: K, v: ChannelFormState[K]) => setForm((f) => ({ ...f, [k]: v }));
  const inTag = kind === 'edit' && Boolean(loaded.data?.tag);
  const locked = (k: (typeof TAG_SHARED)[number]) => inTag && TAG_SHARED.includes(k);
  const typeModels = useMemo(() => lookups.prices.filter((p) => p.channel_type === form.type).map((p) => p.model), [lookups.prices, form.type]);
  const catalogue = CHANNEL_TYPE_BY_ID.get(form.type);
  const other = OTHER_FIELD[form.type];
  const err = (k: keyof ChannelFormState) => {
    const e = errors[k];
    if (!e) return undefined;
    return e.startsWith('validation.') ? t(`common:${e}`, { min: (NUMBER_MIN as Record<string, number>)[k] }) : t(e);
  };

  const objectRule = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? undefined : t('errors.jsonObject'));
  const headersRule = (v: unknown) => objectRule(v) ?? (Object.values(v as object).every((x) => typeof x === 'string') ? undefined : t('errors.stringValues'));

  const save = async () => {
    const found = validateChannelForm(form, kind);
    setErrors(found);
    if (Object.keys(found).length) return;
    const body: Record<string, unknown> = formToBody(form);
    setSaving(true);
    try {
      if (kind === 'create') {
        await api('/api/channel/', { method: 'POST', json: body });
        showSuccess(t('added'));
      } else if (kind === 'tag') {
        delete body.name;
        await api(`/api/channel_tag/${encodeURIComponent((mode as { tag: string }).tag)}`, { method: 'PUT', json: body });
        showSuccess(t('updated'));
      } else {
        if (!body.key) delete body.key;
        if (inTag) for (const k of TAG_SHARED) delete body[k];
        await api('/api/channel/', { method: 'PUT', json: { ...body, id: (mode as { id: number }).id } });
        showSuccess(t('updated'));
      }
      onSaved();
      onClose();
    } catch (e) {
      showError(e);
    } finally {
      setSaving(false);
    }
  };

  const title = kind === 'create' ? t('createTitle') : kind === 'tag' ? t('tagTitle', { tag: (mode as { tag: string }).tag }) : t('editTitle');
  const multiKey = kind === 'tag' || (kind === 'create' && form.batch);
  const waiting = kind !== 'create' && loaded.isLoading;
  const sw = (k: 'only_chat' | 'compatible_response' | 'allow_extra_body', label: string) => (
    <FormControlLabel control={<Switch checked={form[k]} disabled={locked(k)} onChange={(e) => set(k, e.target.checked)} />} label={label} />
  );

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth fullScreen={phone} data-testid="channel-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        {waiting ? (
          <Stack sx={{ alignItems: 'center', py: 6 }}>
            <CircularProgress />
          </Stack>
        ) : loaded.error ? (
          <Alert severity="error">{loaded.error.message}</Alert>
        ) : (
          <Stack spacing={2.5}>
            {inTag && <Alert severity="info">{t('inTagNotice')}</Alert>}
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              {kind !== 'tag' && (
                <TextField select label={t('type')} value={form.type} disabled={locked('type')} onChange={(e) => setForm((f) => changeType(f, Number(e.target.value)))} error={Boolean(errors.type)} helperText={err('type')} data-testid="channel-type">
                  {CHANNEL_TYPES.map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {kind !== 'tag' && <TextField label={t('name')} name="name" value={form.name} onChange={(e) => set('name', e.target.value)} error={Boolean(errors.name)} helperText={err('name')} required />}
              <TextField label={t('tag')} value={form.tag} onChange={(e) => set('tag', e.target.value)} helperText={t('tagHelp')} disabled={kind === 'tag'} />
              <TextField
                label={t('baseUrl')}
                name="base_url"
                value={form.base_url}
                onChange={(e) => set('base_url', e.target.value)}
                required={BASE_URL_REQUIRED.has(form.type)}
                error={Boolean(errors.base_url)}
                helperText={err('base_url') ?? (catalogue?.baseUrl ? t('baseUrlDefault', { url: catalogue.baseUrl }) : t('baseUrlHelp'))}
                placeholder={catalogue?.baseUrl || 'https://'}
              />
              {other && <TextField label={t(`other.${other.label}`)} value={form.other} onChange={(e) => set('other', e.target.value)} helperText={other.fallback ? t('otherDefault', { value: other.fallback }) : undefined} />}
              <Autocomplete
                multiple
                freeSolo
                disabled={locked('group')}
                options={lookups.groups}
                value={form.groups}
                onChange={(_e, v) => set('groups', [...new Set(v.map((g) => g.trim()).filter(Boolean))])}
                renderValue={(v, getItemProps) => v.map((g, index) => { const { key, ...p } = getItemProps({ index }); return <Chip key={key} size="small" label={g} {...p} />; })}
                renderInput={(params) => <TextField {...params} label={t('groups')} error={Boolean(errors.groups)} helperText={err('groups')} />}
              />
            </Box>
            <ModelsField value={form.models} onChange={(m) => set('models', m)} options={lookups.models} typeModels={typeModels} disabled={locked('models')} error={err('models')} onFetch={() => setFetching(true)} />
            <Box>
              {kind === 'create' && <FormControlLabel control={<Switch checked={form.batch} onChange={(e) => set('batch', e.target.checked)} />} label={t('batchAdd')} />}
              <TextField
                label={t('key')}
                name="key"
                fullWidth
                value={form.key}
                onChange={(e) => set('key', e.target.value)}
                multiline={multiKey}
                minRows={multiKey ? 4 : undefined}
                required={kind !== 'edit'}
                placeholder={kind === 'edit' ? t('keySet') : undefined}
                slotProps={{
                  inputLabel: kind === 'edit' ? { shrink: true } : undefined,
                  htmlInput: { autoComplete: 'off', spellCheck: false, 'data-testid': 'channel-key' },
                  input:
                    kind === 'edit' && !form.key
                      ? {
                          endAdornment: (
                            <InputAdornment position="end">
                              <Tooltip title={t('showKey')}>
                                <span>
                                  <IconButton aria-label={t('showKey')} onClick={() => void revealKey()} disabled={revealing} edge="end" data-testid="channel-key-reveal">
                                    <Visibility />
                                  </IconButton>
                                </span>
                              </Tooltip>
                            </InputAdornment>
                          ),
                        }
                      : undefined,
                }}
                error={Boolean(errors.key)}
                helperText={err('key') ?? (multiKey ? t('keyBatchHelp') : kind === 'edit' ? t('keyKeepHelp') : catalogue?.keyHint)}
              />
            </Box>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
              <KeyValueField label={t('modelMapping')} value={form.model_mapping} onChange={(v) => set('model_mapping', v)} disabled={locked('model_mapping')} placeholder={'{\n  "gpt-4o": "gpt-4o-2024-11-20"\n}'} helperText={t('modelMappingHelp')} validate={objectRule} name="model_mapping" keyLabel={t('kv.requested')} valueLabel={t('kv.upstream')} />
              <KeyValueField label={t('modelHeaders')} value={form.model_headers} onChange={(v) => set('model_headers', v)} disabled={locked('model_headers')} placeholder={'{\n  "X-Custom": "value"\n}'} helperText={t('modelHeadersHelp')} validate={headersRule} name="model_headers" keyLabel={t('kv.header')} valueLabel={t('kv.value')} />
              <JsonField label={t('customParameter')} value={form.custom_parameter} onChange={(v) => set('custom_parameter', v)} disabled={locked('custom_parameter')} placeholder={'{\n  "overwrite": true,\n  "temperature": 0.7\n}'} helperText={t('customParameterHelp')} validate={objectRule} name="custom_parameter" />
              <Autocomplete
                multiple
                freeSolo
                disabled={locked('disabled_stream')}
                options={form.models}
                value={form.disabled_stream}
                onChange={(_e, v) => set('disabled_stream', [...new Set(v.map((m) => m.trim()).filter(Boolean))])}
                renderValue={(v, getItemProps) => v.map((m, index) => { const { key, ...p } = getItemProps({ index }); return <Chip key={key} size="small" label={m} {...p} />; })}
                renderInput={(params) => <TextField {...params} label={t('disabledStream')} helperText={t('disabledStreamHelp')} />}
              />
            </Box>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              <TextField label={t('proxy')} value={form.proxy} disabled={locked('proxy')} onChange={(e) => set('proxy', e.target.value)} error={Boolean(errors.proxy)} helperText={err('proxy') ?? t('proxyHelp')} placeholder="socks5://user:pass@host:1080" />
              <TextField label={t('testModel')} name="test_model" value={form.test_model} disabled={locked('test_model')} onChange={(e) => set('test_model', e.target.value)} helperText={t('testModelHelp')} />
              <TextField label={t('priority')} type="number" value={form.priority} onChange={(e) => set('priority', e.target.value)} error={Boolean(errors.priority)} helperText={err('priority') ?? t('priorityHelp')} slotProps={{ htmlInput: { min: 0 } }} />
              <TextField label={t('weight')} type="number" value={form.weight} onChange={(e) => set('weight', e.target.value)} error={Boolean(errors.weight)} helperText={err('weight') ?? t('weightHelp')} slotProps={{ htmlInput: { min: 1 } }} />
              <TextField select label={t('preCost')} value={form.pre_cost} disabled={locked('pre_cost')} onChange={(e) => set('pre_cost', Number(e.target.value))}>
                <MenuItem value={1}>{t('preCostNormal')}</MenuItem>
                <MenuItem value={2}>{t('preCostSkipImages')}</MenuItem>
                <MenuItem value={3}>{t('preCostSkipAll')}</MenuItem>
              </TextField>
            </Box>
            <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ flexWrap: 'wrap' }}>
              {sw('only_chat', t('onlyChat'))}
              {sw('compatible_response', t('compatibleResponse'))}
              {sw('allow_extra_body', t('allowExtraBody'))}
            </Stack>
            <PluginFields type={form.type} value={form.plugin} onChange={(v) => set('plugin', v)} disabled={locked('plugin')} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || waiting} data-testid="channel-submit">
          {t('common:common.submit')}
        </Button>
      </DialogActions>
      <ProviderModelsDialog
        open={fetching}
        request={{ id: kind === 'edit' ? (mode as { id: number }).id : undefined, type: form.type, key: form.key, base_url: form.base_url.trim(), other: form.other.trim(), proxy: form.proxy.trim() }}
        onClose={() => setFetching(false)}
        mappingText={form.model_mapping}
        onApply={(models, overwrite, mapping) =>
          setForm((f) => ({ ...f, models: overwrite ? models : [...new Set([...f.models, ...models])], model_mapping: mapping ? JSON.stringify(mapping, null, 2) : f.model_mapping }))
        }
      />
      {stepUp.dialog}
    </Dialog>
  );
}
