import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { quotaToCurrency, RedemptionForm, type Redemption } from '@one-hub/contract';
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
}
const NEW: Form = { name: '', quota: '100000', count: '1' };

/** Create several codes at once (downloaded as `{name}.txt`) or edit one (console-screens §3.5). */
export default function RedemptionDialog({ open, id, onClose, onSaved }: RedemptionDialogProps) {
  const { t } = useTranslation('redemption');
  const { quota_per_unit: perUnit, display_in_currency: currency } = useAppSelector((s) => s.siteInfo);
  const editing = id !== undefined;
  const loaded = useQuery({ queryKey: ['redemption', id], queryFn: () => api<Redemption>(`/api/redemption/${id}`), enabled: open && editing, retry: false, gcTime: 0 });
  const [form, setForm] = useState<Form>(NEW);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setServerError('');
    setForm(editing && loaded.data ? { name: loaded.data.name, quota: String(loaded.data.quota), count: '1' } : NEW);
  }, [open, editing, loaded.data]);

  const set = (k: keyof Form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const err = (k: keyof Form) => (errors[k] ? { error: true, helperText: t(errors[k], { ns: 'common' }) } : {});

  const save = async () => {
    const parsed = RedemptionForm.safeParse(form);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    setSaving(true);
    setServerError('');
    try {
      if (editing) {
        await api('/api/redemption/', { method: 'PUT', json: { id, name: parsed.data.name, quota: parsed.data.quota } });
        showSuccess(t('updated'));
      } else {
        const keys = await api<string[]>('/api/redemption/', { json: parsed.data });
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
            <TextField
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
            />
            {!editing && <TextField name="count" type="number" label={t('count')} value={form.count} onChange={set('count')} {...err('count')} helperText={errors.count ? t(errors.count, { ns: 'common' }) : t('countHint')} slotProps={{ htmlInput: { min: 1, max: 100 } }} />}
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
