import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Avatar,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ROLE, quotaToCurrency, type Page, type Token } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { useAppSelector } from '../../store';
import { formToBody, fromLocalInput, toLocalInput, tokenToForm, validateTokenForm, type TokenFormErrors, type TokenFormState } from './token-form';
import DateTimeField from '../../components/dates/DateTimeField';
import { useAvailableModels, useGroupMap, useOwnerIcons } from './use-token-lookups';
import RequestLimitFields from '../../components/RequestLimitFields';
import { serverFieldErrors } from '../../lib/form-errors';

/** Server body fields → this form's fields, for field errors a save answers. */
const SERVER_FIELDS: Record<string, string> = { remain_quota: 'remainQuota', expired_time: 'expiry', backup_group: 'backupGroup', user_id: 'transferTo', mcp_tools: 'mcpTools' };

export interface TokenDialogProps {
  open: boolean;
  /** Token id to edit; absent for a new token. */
  id?: number;
  /** Admin search mode: loads and saves through the admin endpoints (with ownership transfer). */
  admin?: boolean;
  onClose: () => void;
  onSaved: () => void;
  /** A new token's key, to show once. */
  onCreated?: (key: string) => void;
}

async function loadToken(id: number, admin: boolean): Promise<Token> {
  if (!admin) return api<Token>(`/api/token/${id}`);
  const page = await api<Page<Token>>('/api/token/admin/search', { query: { token_id: id, page: 1, size: 1 } });
  if (!page.data[0]) throw new Error('token not found');
  return page.data[0];
}

/** Create / edit a token (console-screens §3.7). */
export default function TokenDialog({ open, id, admin = false, onClose, onSaved, onCreated }: TokenDialogProps) {
  const { t } = useTranslation('token');
  const role = useAppSelector((s) => s.account.user?.role ?? 0);
  const { quota_per_unit: perUnit, display_in_currency: currency } = useAppSelector((s) => s.siteInfo);
  const editing = id !== undefined;
  const loaded = useQuery({ queryKey: ['token', id, admin], queryFn: () => loadToken(id!, admin), enabled: open && editing, retry: false, gcTime: 0 });
  const groups = useGroupMap();
  const [form, setForm] = useState<TokenFormState>(() => tokenToForm());
  const models = useAvailableModels(open && form.limitModels);
  const icons = useOwnerIcons(open && form.limitModels);
  const [errors, setErrors] = useState<TokenFormErrors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setForm(tokenToForm(editing ? loaded.data : undefined));
  }, [open, editing, loaded.data]);

  const set = <K extends keyof TokenFormState>(k: K, v: TokenFormState[K]) => setForm((f) => ({ ...f, [k]: v }));
  const groupList = useMemo(() => Object.values(groups.data ?? {}), [groups.data]);
  const modelOptions = useMemo(
    () => Object.entries(models.data ?? {}).map(([name, m]) => ({ name, owner: m.owned_by, groups: m.groups })).sort((a, b) => a.owner.localeCompare(b.owner) || a.name.localeCompare(b.name)),
    [models.data],
  );
  const reliable = role >= ROLE.reliable;

  const save = async () => {
    const found = validateTokenForm(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    const body = formToBody(form, reliable);
    setSaving(true);
    try {
      if (!editing) {
        const created = await api<{ key?: string } | null>('/api/token/', { method: 'POST', json: body });
        if (created?.key && onCreated) onCreated(created.key);
        else showSuccess(t('created_toast'));
      } else if (admin) {
        const transfer = form.transferTo.trim() ? { user_id: Number(form.transferTo) } : {};
        await api('/api/token/admin', { method: 'PUT', json: { ...body, id, ...transfer } });
        showSuccess(t('updated'));
      } else {
        await api('/api/token/', { method: 'PUT', json: { ...body, id } });
        showSuccess(t('updated'));
      }
      onSaved();
      onClose();
    } catch (e) {
      // A refused field is shown at the field; any other failure as a toast.
      const atFields = serverFieldErrors(e, ['name', 'expiry', 'remainQuota', 'heartbeatTimeout', 'group', 'ipText', 'transferTo', 'mcpTools'], SERVER_FIELDS);
      setErrors(atFields);
      if (!Object.keys(atFields).length) showError(e);
    } finally {
      setSaving(false);
    }
  };

  const err = (k: keyof TokenFormState) => (errors[k] ? t(errors[k]) : undefined);
  const waiting = editing && loaded.isLoading;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="token-dialog">
      <DialogTitle>{editing ? t('editTitle') : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        {waiting ? (
          <Stack sx={{ alignItems: 'center', py: 6 }}>
            <CircularProgress />
          </Stack>
        ) : loaded.error ? (
          <Alert severity="error">{loaded.error.message}</Alert>
        ) : (
          <Stack spacing={2.5}>
            {admin && editing && (
              <>
                <Alert severity="warning">{t('adminWarning')}</Alert>
                <TextField label={t('transferTo')} value={form.transferTo} onChange={(e) => set('transferTo', e.target.value)} error={Boolean(errors.transferTo)} helperText={err('transferTo')} inputMode="numeric" />
              </>
            )}
            <TextField label={t('name')} name="name" value={form.name} onChange={(e) => set('name', e.target.value)} error={Boolean(errors.name)} helperText={err('name')} required autoFocus />

            <FormControlLabel
              control={<Switch checked={form.neverExpires} onChange={(e) => setForm((f) => ({ ...f, neverExpires: e.target.checked, expiry: e.target.checked ? f.expiry : tokenToForm().expiry }))} />}
              label={t('neverExpires')}
            />
            {!form.neverExpires && (
              <DateTimeField
                label={t('expiry')}
                testId="token-expiry"
                value={Number.isNaN(fromLocalInput(form.expiry)) ? 0 : fromLocalInput(form.expiry)}
                onChange={(s) => set('expiry', s ? toLocalInput(s) : '')}
                error={Boolean(errors.expiry)}
                helperText={err('expiry')}
                width="100%"
              />
            )}

            <FormControlLabel control={<Switch checked={form.unlimited} onChange={(e) => set('unlimited', e.target.checked)} />} label={t('unlimited')} />
            <TextField
              label={t('quota')}
              name="remain_quota"
              type="number"
              value={form.remainQuota}
              disabled={form.unlimited}
              onChange={(e) => set('remainQuota', e.target.value)}
              error={Boolean(errors.remainQuota)}
              helperText={err('remainQuota') ?? t('quotaInfo')}
              slotProps={{
                htmlInput: { min: 0 },
                input: currency ? { endAdornment: <InputAdornment position="end">{t('equivalent', { amount: quotaToCurrency(Number(form.remainQuota) || 0, perUnit) })}</InputAdornment> } : undefined,
              }}
            />

            <Divider />
            <FormControlLabel control={<Switch checked={form.heartbeat} onChange={(e) => set('heartbeat', e.target.checked)} />} label={t('heartbeat')} />
            <Typography variant="caption" color="text.secondary" sx={{ mt: '-12px !important' }}>
              {t('heartbeatHelp')}
            </Typography>
            {form.heartbeat && (
              <TextField label={t('heartbeatTimeout')} type="number" value={form.heartbeatTimeout} onChange={(e) => set('heartbeatTimeout', e.target.value)} error={Boolean(errors.heartbeatTimeout)} helperText={err('heartbeatTimeout')} slotProps={{ htmlInput: { min: 30, max: 90 } }} />
            )}

            <Divider />
            <TextField
              select
              label={t('group')}
              value={form.group}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              onChange={(e) => setForm((f) => ({ ...f, group: e.target.value, backupGroup: f.backupGroup === e.target.value ? '' : f.backupGroup }))}
              error={Boolean(errors.group)}
              helperText={err('group')}
              data-testid="token-group"
            >
              <MenuItem value="">{t('followUser')}</MenuItem>
              {groupList.map((g) => (
                <MenuItem key={g.symbol} value={g.symbol}>
                  {t('groupOption', { name: g.name, ratio: g.ratio })}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label={t('backupGroup')} value={form.backupGroup} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} onChange={(e) => set('backupGroup', e.target.value)}>
              <MenuItem value="">{t('noBackup')}</MenuItem>
              {groupList.map((g) => (
                <MenuItem key={g.symbol} value={g.symbol} disabled={g.symbol === form.group && form.group !== ''}>
                  {t('groupOption', { name: g.name, ratio: g.ratio })}
                </MenuItem>
              ))}
            </TextField>

            <Divider />
            <FormControlLabel control={<Switch checked={form.limitModels} onChange={(e) => setForm((f) => ({ ...f, limitModels: e.target.checked, models: e.target.checked ? f.models : [] }))} />} label={t('limitModels')} />
            {form.limitModels && (
              <Autocomplete
                multiple
                freeSolo
                options={modelOptions.map((m) => m.name)}
                groupBy={(name) => modelOptions.find((m) => m.name === name)?.owner ?? ''}
                value={form.models}
                loading={models.isLoading}
                onChange={(_e, v) => set('models', [...new Set(v.map((s) => s.trim()).filter(Boolean))])}
                renderOption={(props, name) => {
                  const { key, ...rest } = props as typeof props & { key: string };
                  const m = modelOptions.find((o) => o.name === name);
                  return (
                    <li key={key} {...rest}>
                      <Avatar src={m ? icons.get(m.owner) : undefined} alt="" sx={{ width: 20, height: 20, mr: 1, fontSize: 11 }}>
                        {m?.owner.slice(0, 1)}
                      </Avatar>
                      <Box sx={{ flex: 1, minWidth: 0, wordBreak: 'break-all' }}>{name}</Box>
                      {m?.groups.map((g) => <Chip key={g} label={g} size="small" variant="outlined" sx={{ ml: 0.5 }} />)}
                    </li>
                  );
                }}
                renderValue={(value, getItemProps) => value.map((option, index) => <Chip size="small" label={option} {...getItemProps({ index })} key={option} />)}
                renderInput={(params) => <TextField {...params} label={t('models')} helperText={t('modelsHelp')} />}
              />
            )}
            <FormControlLabel control={<Switch checked={form.limitIp} onChange={(e) => setForm((f) => ({ ...f, limitIp: e.target.checked, ipText: e.target.checked ? f.ipText : '' }))} />} label={t('limitIp')} />
            {form.limitIp && (
              <TextField label={t('ipWhitelist')} multiline rows={6} value={form.ipText} onChange={(e) => set('ipText', e.target.value)} error={Boolean(errors.ipText)} helperText={err('ipText') ?? t('ipHelp')} placeholder={'127.0.0.1\n10.0.0.0/8'} />
            )}
            <TextField
              label={t('mcpTools')}
              name="mcp_tools"
              value={form.mcpTools}
              onChange={(e) => set('mcpTools', e.target.value)}
              error={Boolean(errors.mcpTools)}
              helperText={err('mcpTools') ?? t('mcpToolsHelp')}
              placeholder="github/*,search/web_search"
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { spellCheck: false } }}
              data-testid="token-mcp-tools"
            />
            <Divider />
            <RequestLimitFields value={form.limits} onChange={(v) => set('limits', v)} />
            {reliable && (
              <TextField select label={t('billingTag')} value={form.billingTag} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} onChange={(e) => set('billingTag', e.target.value)}>
                <MenuItem value="">{t('none')}</MenuItem>
                {groupList.map((g) => (
                  <MenuItem key={g.symbol} value={g.symbol}>
                    {g.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || waiting} data-testid="token-submit">
          {t('common:common.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
