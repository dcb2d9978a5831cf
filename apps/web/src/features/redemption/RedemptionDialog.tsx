import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { quotaToCurrency, RedemptionForm, type Plan, type Redemption } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { fieldErrors } from '../../lib/form-errors';
import { copyText, showError, showSuccess } from '../../lib/toast';
import { useAppSelector } from '../../store';
import { codesFile, downloadText } from './download-codes';

export interface RedemptionDialogProps {
  open: boolean;
  /** Code id to edit; absent to create. */
  id?: number;
  onClose: () => void;
  onSaved: () => void;
}

interface Form {
  name: string;
  quota: string;
  count: string;
  /** '' for a quota code; a plan id for a "plan" code. */
  plan_id: string;
}
const NEW: Form = { name: '', quota: '100000', count: '1', plan_id: '' };

/** Create several codes at once (downloaded as `{name}.txt`) or edit one (console-screens §3.5). */
export default function RedemptionDialog({ open, id, onClose, onSaved }: RedemptionDialogProps) {
  const { t } = useTranslation('redemption');
  const { quota_per_unit: perUnit, display_in_currency: currency } = useAppSelector((s) => s.siteInfo);
  const editing = id !== undefined;
  const loaded = useQuery({ queryKey: ['redemption', id], queryFn: () => api<Redemption>(`/api/redemption/${id}`), enabled: open && editing, retry: false, gcTime: 0 });
  const [form, setForm] = useState<Form>(NEW);
  const [kind, setKind] = useState<'quota' | 'plan'>('quota');
  const plans = useQuery({ queryKey: ['plans'], queryFn: () => api<Plan[]>('/api/plan/'), enabled: open && !editing && kind === 'plan' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setServerError('');
    setForm(editing && loaded.data ? { name: loaded.data.name, quota: String(loaded.data.quota), count: '1', plan_id: String(loaded.data.plan_id || '') } : NEW);
    setKind(editing && loaded.data?.plan_id ? 'plan' : 'quota');
  }, [open, editing, loaded.data]);

  const set = (k: keyof Form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const err = (k: keyof Form) => (errors[k] ? { error: true, helperText: errors[k] } : {});

  const save = async () => {
    const parsed = RedemptionForm.safeParse(kind === 'plan' ? { ...form, quota: '0' } : form);
    const found = parsed.success ? {} : fieldErrors(parsed.error);
    if (kind === 'plan' && !editing && !form.plan_id) found.plan_id = t('validation.required', { ns: 'common' });
    setErrors(found);
    if (!parsed.success || Object.keys(found).length) return;
    setSaving(true);
    setServerError('');
    try {
      if (editing) {
        await api('/api/redemption/', { method: 'PUT', json: { id, name: parsed.data.name, quota: parsed.data.quota } });
        showSuccess(t('updated'));
      } else {
        const keys = await api<string[]>('/api/redemption/', { json: kind === 'plan' ? { ...parsed.data, plan_id: Number(form.plan_id) } : parsed.data });
        if (keys.length > 1) {
          const file = codesFile(parsed.data.name, keys);
          downloadText(file.fileName, file.text);
          showSuccess(t('createdMany', { count: keys.length }));
        } else {
          showSuccess(t('created'));
          if (keys[0]) void copyText(keys[0], t('code'));
        }
      }
      onSaved();
      onClose();
    } catch (e) {
      setServerError(describeError(e, t).text);
      showError(e);
    }
    setSaving(false);
  };

  const quota = Number(form.quota);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="redemption-dialog">
      <DialogTitle>{editing ? t('editTitle') : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        {editing && loaded.isPending ? (
          <Stack sx={{ py: 4, alignItems: 'center' }}>
            <CircularProgress />
          </Stack>
        ) : (
          <Stack spacing={2.5} component="form" noValidate onSubmit={(e) => (e.preventDefault(), void save())}>
            {loaded.isError && <Alert severity="error">{describeError(loaded.error, t).text}</Alert>}
            <TextField name="name" label={t('name')} value={form.name} onChange={set('name')} required autoFocus {...err('name')} slotProps={{ htmlInput: { maxLength: 20 } }} />
            {!editing && (
              <TextField select name="kind" label={t('kind')} value={kind} onChange={(e) => setKind(e.target.value as 'quota' | 'plan')} data-testid="redemption-kind">
                <MenuItem value="quota">{t('kindQuota')}</MenuItem>
                <MenuItem value="plan">{t('kindPlan')}</MenuItem>
              </TextField>
            )}
            {kind === 'plan' && (
              <TextField select name="plan_id" label={t('plan')} value={form.plan_id} onChange={set('plan_id')} disabled={editing} {...err('plan_id')}>
                {(plans.data ?? []).map((p) => (
                  <MenuItem key={p.id} value={String(p.id)}>
                    {p.name}
                  </MenuItem>
                ))}
                {editing && <MenuItem value={form.plan_id}>#{form.plan_id}</MenuItem>}
              </TextField>
            )}
            {kind === 'quota' && <TextField
              name="quota"
              type="number"
              label={t('quota')}
              value={form.quota}
              onChange={set('quota')}
              {...err('quota')}
              slotProps={{
                htmlInput: { min: 0 },
                input: currency && Number.isFinite(quota) ? { endAdornment: <InputAdornment position="end">{t('equivalent', { amount: quotaToCurrency(quota, perUnit) })}</InputAdornment> } : undefined,
              }}
            />}
            {!editing && <TextField name="count" type="number" label={t('count')} value={form.count} onChange={set('count')} {...err('count')} helperText={errors.count ? errors.count : t('countHint')} slotProps={{ htmlInput: { min: 1, max: 100 } }} />}
            {serverError && <Alert severity="error">{serverError}</Alert>}
            <button type="submit" hidden />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel', { ns: 'common' })}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || (editing && !loaded.data)} data-testid="redemption-submit">
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
