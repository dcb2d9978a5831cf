import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PLAN_DURATION_KINDS, PLAN_WINDOW_KINDS, type Plan } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { showSuccess } from '../../lib/toast';
import { formToBody, NEW_PLAN, planToForm, type PlanForm } from './plan-form';

/** Create or edit one plan. */
export default function PlanDialog({ plan, open, onClose, onSaved }: { plan?: Plan; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('plan');
  const [form, setForm] = useState<PlanForm>(NEW_PLAN);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!open) return;
    setForm(plan ? planToForm(plan) : NEW_PLAN);
    setErrors({});
    setServerError('');
  }, [open, plan]);

  const text = (k: keyof PlanForm) => ({
    value: form[k] as string,
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value })),
    error: Boolean(errors[k]),
    helperText: errors[k] ? t('invalid', { reason: errors[k] }) : undefined,
    label: t(`field.${k}`),
    size: 'small' as const,
    fullWidth: true,
  });
  const flag = (k: 'renews' | 'public' | 'enabled') => (
    <FormControlLabel control={<Switch checked={form[k]} onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.checked }))} />} label={t(`field.${k}`)} />
  );

  const save = async () => {
    const { body, errors: found } = formToBody(form);
    setErrors(found);
    if (!body) return;
    setSaving(true);
    setServerError('');
    try {
      await api('/api/plan/', { method: plan ? 'PUT' : 'POST', json: plan ? { ...body, id: plan.id } : body });
      showSuccess(t('saved'));
      onSaved();
    } catch (e) {
      setServerError(describeError(e, t).text);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="plan-dialog">
      <DialogTitle>{plan ? t('edit') : t('create')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {serverError && <Alert severity="error">{serverError}</Alert>}
          <TextField {...text('name')} />
          <TextField {...text('description')} multiline minRows={2} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField {...text('price')} type="number" />
            <TextField {...text('currency')} select>
              {['USD', 'CNY'].map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField {...text('duration_count')} type="number" />
            <TextField {...text('duration_kind')} select>
              {PLAN_DURATION_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {t(`duration.${k}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField {...text('window_quota')} type="number" />
            <TextField {...text('window_kind')} select>
              {PLAN_WINDOW_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {t(`window.${k}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <TextField {...text('models')} placeholder={t('allHint')} />
          <TextField {...text('groups')} placeholder={t('allHint')} />
          <TextField {...text('sort')} type="number" />
          <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
            {flag('renews')}
            {flag('public')}
            {flag('enabled')}
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving} data-testid="plan-save">
          {t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
