import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UserGroupForm, type UserGroup } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { fieldErrors, serverFieldErrors } from '../../lib/form-errors';
import { showError, showSuccess } from '../../lib/toast';

export interface UserGroupDialogProps {
  open: boolean;
  id?: number;
  onClose: () => void;
  onSaved: () => void;
}

interface Form {
  symbol: string;
  name: string;
  ratio: string;
  api_rate: string;
  promotion: boolean;
  min: string;
  max: string;
  public: boolean;
}
const NEW: Form = { symbol: '', name: '', ratio: '1', api_rate: '300', promotion: false, min: '0', max: '0', public: false };
const toForm = (g: UserGroup): Form => ({ ...g, ratio: String(g.ratio), api_rate: String(g.api_rate), min: String(g.min), max: String(g.max) });

type TextKey = 'symbol' | 'name' | 'ratio' | 'api_rate' | 'min' | 'max';

/** Create / edit a user group (console-screens §3.17); the symbol is fixed once created. */
export default function UserGroupDialog({ open, id, onClose, onSaved }: UserGroupDialogProps) {
  const { t } = useTranslation('user-group');
  const editing = id !== undefined;
  const loaded = useQuery({ queryKey: ['user-group', id], queryFn: () => api<UserGroup>(`/api/user_group/${id}`), enabled: open && editing, retry: false, gcTime: 0 });
  const [form, setForm] = useState<Form>(NEW);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setServerError('');
    setForm(editing && loaded.data ? toForm(loaded.data) : NEW);
  }, [open, editing, loaded.data]);

  const save = async () => {
    const parsed = UserGroupForm.safeParse(form);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    setSaving(true);
    setServerError('');
    try {
      if (editing) {
        const { symbol: _fixed, ...rest } = parsed.data;
        await api('/api/user_group/', { method: 'PUT', json: { ...rest, id } });
      } else {
        await api('/api/user_group/', { json: parsed.data });
      }
      showSuccess(editing ? t('updated') : t('created'));
      onSaved();
      onClose();
    } catch (e) {
      // A refused field (a taken symbol, a bound) is shown at the field; any other failure above the form.
      const atFields = serverFieldErrors(e, ['symbol', 'name', 'ratio', 'api_rate', 'min', 'max']);
      setErrors(atFields);
      if (!Object.keys(atFields).length) {
        setServerError(describeError(e, t).text);
        showError(e);
      }
    }
    setSaving(false);
  };

  const text = (k: TextKey, extra: { type?: string; required?: boolean; disabled?: boolean } = {}) => (
    <TextField
      name={k}
      label={t(`field.${k}`)}
      value={form[k]}
      onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.value }))}
      error={Boolean(errors[k])}
      helperText={errors[k] ? errors[k] : t(`help.${k}`)}
      fullWidth
      {...extra}
    />
  );
  const flag = (k: 'promotion' | 'public') => (
    <FormControlLabel control={<Switch name={k} checked={form[k]} onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.checked }))} />} label={t(`field.${k}`)} />
  );

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="user-group-dialog">
      <DialogTitle>{editing ? t('editTitle') : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        {editing && loaded.isPending ? (
          <Stack sx={{ py: 4, alignItems: 'center' }}>
            <CircularProgress />
          </Stack>
        ) : (
          <Stack spacing={2.5}>
            {loaded.isError && <Alert severity="error">{describeError(loaded.error, t).text}</Alert>}
            {text('symbol', { required: true, disabled: editing })}
            {text('name', { required: true })}
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              {text('ratio', { type: 'number', required: true })}
              {text('api_rate', { type: 'number' })}
            </Box>
            {flag('promotion')}
            {form.promotion && (
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                {text('min', { type: 'number' })}
                {text('max', { type: 'number' })}
              </Box>
            )}
            {flag('public')}
            {serverError && <Alert severity="error">{serverError}</Alert>}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel', { ns: 'common' })}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || (editing && !loaded.data)} data-testid="user-group-submit">
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
