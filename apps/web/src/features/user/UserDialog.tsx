import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { userForm, type User } from '@one-hub/contract';
import PasswordField from '../../components/PasswordField';
import { api } from '../../lib/api';
import { describeError, notifyServerMessage } from '../../lib/error-handler';
import { fieldErrors, serverFieldErrors } from '../../lib/form-errors';
import { showSuccess } from '../../lib/toast';

export interface UserDialogProps {
  open: boolean;
  id?: number;
  onClose: () => void;
  onSaved: () => void;
}

interface Form {
  username: string;
  display_name: string;
  password: string;
  group: string;
}
const NEW: Form = { username: '', display_name: '', password: '', group: '' };

/** Create or edit a user (console-screens §3.9): the group only on edit; quota through its own dialog. */
export default function UserDialog({ open, id, onClose, onSaved }: UserDialogProps) {
  const { t } = useTranslation('user');
  const editing = id !== undefined;
  const loaded = useQuery({ queryKey: ['user', id], queryFn: () => api<User>(`/api/user/${id}`), enabled: open && editing, retry: false, gcTime: 0 });
  const groups = useQuery({ queryKey: ['group-symbols'], queryFn: () => api<string[]>('/api/group/'), enabled: open && editing });
  const [form, setForm] = useState<Form>(NEW);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setServerError('');
    const u = loaded.data;
    setForm(editing && u ? { username: u.username, display_name: u.display_name, password: '', group: u.group } : NEW);
  }, [open, editing, loaded.data]);

  const save = async () => {
    const parsed = userForm(!editing).safeParse(form);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    setSaving(true);
    setServerError('');
    try {
      if (editing) await api('/api/user/', { method: 'PUT', json: { ...parsed.data, id } });
      else await api('/api/user/', { json: { username: parsed.data.username, display_name: parsed.data.display_name, password: parsed.data.password } });
      showSuccess(editing ? t('updated') : t('createdOk'));
      onSaved();
      onClose();
    } catch (e) {
      // shown once: at the refused field, or inline in the dialog that stays open
      const atFields = serverFieldErrors(e, ['username', 'display_name', 'password', 'group']);
      setErrors(atFields);
      if (!Object.keys(atFields).length) setServerError(describeError(e, t).text);
      notifyServerMessage(e);
    }
    setSaving(false);
  };

  const bind = (k: keyof Form) => ({
    name: k,
    value: form[k],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value })),
    error: Boolean(errors[k]),
    helperText: errors[k] ? errors[k] : t(`help.${k}`, { defaultValue: '' }) || undefined,
    fullWidth: true,
  });
  const groupChoices = [...new Set([...(groups.data ?? []), form.group].filter(Boolean))];

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="user-dialog">
      <DialogTitle>{editing ? t('editTitle') : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        {editing && loaded.isPending ? (
          <Stack sx={{ py: 4, alignItems: 'center' }}>
            <CircularProgress />
          </Stack>
        ) : (
          <Stack spacing={2.5}>
            {loaded.isError && <Alert severity="error">{describeError(loaded.error, t).text}</Alert>}
            <TextField {...bind('username')} label={t('username')} required autoComplete="off" />
            <TextField {...bind('display_name')} label={t('displayName')} />
            <PasswordField {...bind('password')} label={t('password')} required={!editing} autoComplete="new-password" helperText={errors.password ? errors.password : editing ? t('help.passwordEdit') : t('help.password')} />
            {editing && (
              <TextField {...bind('group')} select label={t('group')} required>
                {groupChoices.map((g) => (
                  <MenuItem key={g} value={g}>
                    {g}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {serverError && <Alert severity="error">{serverError}</Alert>}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel', { ns: 'common' })}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || (editing && !loaded.data)} data-testid="user-submit">
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
