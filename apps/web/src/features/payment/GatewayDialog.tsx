import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Divider, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAYMENT_CURRENCIES, PAYMENT_TYPES, PaymentForm, SECRET_PLACEHOLDER, type PaymentGateway } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { fieldErrors } from '../../lib/form-errors';
import { showError, showSuccess } from '../../lib/toast';
import { CONFIG_FIELDS, readConfig, writeConfig } from './payment-data';

export interface GatewayDialogProps {
  open: boolean;
  /** Gateway id to edit; absent to create. */
  id?: number;
  onClose: () => void;
  onSaved: () => void;
}

interface Form {
  type: string;
  name: string;
  icon: string;
  notify_domain: string;
  fixed_fee: string;
  percent_fee: string;
  currency: string;
  config: Record<string, string>;
}
const NEW: Form = { type: 'epay', name: '', icon: '', notify_domain: '', fixed_fee: '0', percent_fee: '0', currency: 'CNY', config: {} };
// Sort and enable are set from the list, not here (console-screens §3.15).
const DialogForm = PaymentForm.omit({ sort: true });

/** Create or edit a payment gateway with its per-type credentials (console-screens §3.15). */
export default function GatewayDialog({ open, id, onClose, onSaved }: GatewayDialogProps) {
  const { t } = useTranslation('payment');
  const editing = id !== undefined;
  const loaded = useQuery({ queryKey: ['payment', id], queryFn: () => api<PaymentGateway>(`/api/payment/${id}`), enabled: open && editing, retry: false, gcTime: 0 });
  const [form, setForm] = useState<Form>(NEW);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setServerError('');
    const g = loaded.data;
    setForm(
      editing && g
        ? { type: g.type, name: g.name, icon: g.icon, notify_domain: g.notify_domain, fixed_fee: String(g.fixed_fee), percent_fee: String(g.percent_fee), currency: g.currency, config: readConfig(g.config) }
        : NEW,
    );
  }, [open, editing, loaded.data]);

  const set = (k: Exclude<keyof Form, 'config'>) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    setErrors(({ [k]: _fixed, ...rest }) => rest);
  };
  const setConfig = (k: string) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, config: { ...f.config, [k]: e.target.value } }));
  const err = (k: string, hint?: string) => (errors[k] ? { error: true, helperText: errors[k] } : hint ? { helperText: hint } : {});

  const save = async () => {
    const parsed = DialogForm.safeParse(form);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    setSaving(true);
    setServerError('');
    const body = { ...parsed.data, notify_domain: form.notify_domain.trim(), config: writeConfig(form.type, form.config) };
    try {
      if (editing) await api('/api/payment/', { method: 'PUT', json: { ...body, id } });
      else await api('/api/payment/', { json: body });
      showSuccess(t(editing ? 'updated' : 'created'));
      onSaved();
      onClose();
    } catch (e) {
      setServerError(describeError(e, t).text);
      showError(e);
    }
    setSaving(false);
  };

  const fields = CONFIG_FIELDS[form.type] ?? [];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth data-testid="gateway-dialog">
      <DialogTitle>{editing ? t('editTitle') : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        {editing && loaded.isPending ? (
          <Stack sx={{ py: 4, alignItems: 'center' }}>
            <CircularProgress />
          </Stack>
        ) : (
          <Stack spacing={2.5} component="form" noValidate onSubmit={(e) => (e.preventDefault(), void save())}>
            {loaded.isError && <Alert severity="error">{describeError(loaded.error, t).text}</Alert>}
            <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              <TextField name="type" select label={t('type')} value={form.type} onChange={set('type')} required {...err('type')}>
                {PAYMENT_TYPES.map((p) => (
                  <MenuItem key={p} value={p}>
                    {t(`types.${p}`)}
                  </MenuItem>
                ))}
              </TextField>
              <TextField name="currency" select label={t('currency')} value={form.currency} onChange={set('currency')} required {...err('currency', t('currencyHint'))}>
                {PAYMENT_CURRENCIES.map((c) => (
                  <MenuItem key={c} value={c}>
                    {c}
                  </MenuItem>
                ))}
              </TextField>
              <TextField name="name" label={t('name')} value={form.name} onChange={set('name')} required {...err('name')} />
              <TextField name="icon" label={t('icon')} value={form.icon} onChange={set('icon')} required {...err('icon', t('iconHint'))} />
              <TextField name="fixed_fee" type="number" label={t('fixedFee')} value={form.fixed_fee} onChange={set('fixed_fee')} {...err('fixed_fee', t('fixedFeeHint'))} slotProps={{ htmlInput: { min: 0, step: 0.01 } }} />
              <TextField name="percent_fee" type="number" label={t('percentFee')} value={form.percent_fee} onChange={set('percent_fee')} {...err('percent_fee', t('percentFeeHint'))} slotProps={{ htmlInput: { min: 0, max: 1, step: 0.01 } }} />
            </Box>
            <TextField name="notify_domain" label={t('notifyDomain')} value={form.notify_domain} onChange={set('notify_domain')} helperText={t('notifyDomainHint')} />
            <Divider />
            <Typography variant="subtitle2">{t('configTitle', { type: t(`types.${form.type}`) })}</Typography>
            {fields.map((f) =>
              f.options ? (
                <TextField key={f.key} name={`config.${f.key}`} select label={t(`config.${f.key}`)} value={form.config[f.key] ?? f.options[0]} onChange={setConfig(f.key)}>
                  {f.options.map((o) => (
                    <MenuItem key={o || 'default'} value={o}>
                      {t(`payTypes.${o || 'checkout'}`)}
                    </MenuItem>
                  ))}
                </TextField>
              ) : (
                <TextField
                  key={f.key}
                  name={`config.${f.key}`}
                  label={t(`config.${f.key}`)}
                  value={form.config[f.key] ?? ''}
                  onChange={setConfig(f.key)}
                  multiline={f.multiline}
                  minRows={f.multiline ? 3 : undefined}
                  helperText={f.readOnly ? t('serverFilled') : f.secret && form.config[f.key] === SECRET_PLACEHOLDER ? t('secretKept') : undefined}
                  slotProps={{ input: { readOnly: f.readOnly }, htmlInput: { autoComplete: f.secret ? 'off' : undefined, spellCheck: false } }}
                />
              ),
            )}
            {serverError && <Alert severity="error">{serverError}</Alert>}
            <button type="submit" hidden />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel', { ns: 'common' })}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || (editing && !loaded.data)} data-testid="gateway-submit">
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
