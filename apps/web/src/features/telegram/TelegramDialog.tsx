import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TELEGRAM_PARSE_MODES, TelegramMenuForm, type TelegramMenu } from '@one-hub/contract';
import { apiWithMessage, api } from '../../lib/api';
import { describeError } from '../../lib/error-handler';
import { fieldErrors } from '../../lib/form-errors';
import { showError, showSuccess } from '../../lib/toast';

export interface TelegramDialogProps {
  open: boolean;
  /** Menu id to edit; absent to create. */
  id?: number;
  onClose: () => void;
  onSaved: () => void;
}

type Form = Pick<TelegramMenu, 'command' | 'description' | 'parse_mode' | 'reply_message'>;
const NEW: Form = { command: '', description: '', parse_mode: 'MarkdownV2', reply_message: '' };

/** Create or edit a bot menu command (console-screens §3.11); both save through POST. */
export default function TelegramDialog({ open, id, onClose, onSaved }: TelegramDialogProps) {
  const { t } = useTranslation('telegram');
  const editing = id !== undefined;
  const loaded = useQuery({ queryKey: ['telegram-menu', id], queryFn: () => api<TelegramMenu>(`/api/option/telegram/${id}`), enabled: open && editing, retry: false, gcTime: 0 });
  const [form, setForm] = useState<Form>(NEW);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setServerError('');
    const m = loaded.data;
    setForm(editing && m ? { command: m.command, description: m.description, parse_mode: m.parse_mode, reply_message: m.reply_message } : NEW);
  }, [open, editing, loaded.data]);

  const set = (k: keyof Form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    setErrors(({ [k]: _fixed, ...rest }) => rest);
  };
  const err = (k: keyof Form) => (errors[k] ? { error: true, helperText: errors[k] } : {});

  const save = async () => {
    const parsed = TelegramMenuForm.safeParse(form);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    setSaving(true);
    setServerError('');
    try {
      const command = parsed.data.command.replace(/^\//, '').toLowerCase();
      const { message } = await apiWithMessage('/api/option/telegram/', { json: { ...parsed.data, command, ...(editing ? { id } : {}) } });
      showSuccess(message || t(editing ? 'updated' : 'created'));
      onSaved();
      onClose();
    } catch (e) {
      setServerError(describeError(e, t).text);
      showError(e);
    }
    setSaving(false);
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="telegram-dialog">
      <DialogTitle>{editing ? t('editTitle') : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        {editing && loaded.isPending ? (
          <Stack sx={{ py: 4, alignItems: 'center' }}>
            <CircularProgress />
          </Stack>
        ) : (
          <Stack spacing={2.5} component="form" noValidate onSubmit={(e) => (e.preventDefault(), void save())}>
            {loaded.isError && <Alert severity="error">{describeError(loaded.error, t).text}</Alert>}
            <TextField name="command" label={t('command')} value={form.command} onChange={set('command')} required autoFocus {...err('command')} helperText={errors.command ? errors.command : t('commandHint')} />
            <TextField name="description" label={t('description')} value={form.description} onChange={set('description')} required {...err('description')} />
            <TextField name="parse_mode" select label={t('parseMode')} value={form.parse_mode} onChange={set('parse_mode')} required {...err('parse_mode')}>
              {TELEGRAM_PARSE_MODES.map((m) => (
                <MenuItem key={m} value={m}>
                  {m}
                </MenuItem>
              ))}
            </TextField>
            <TextField name="reply_message" label={t('replyMessage')} value={form.reply_message} onChange={set('reply_message')} required multiline minRows={4} maxRows={12} {...err('reply_message')} />
            {serverError && <Alert severity="error">{serverError}</Alert>}
            <button type="submit" hidden />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel', { ns: 'common' })}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || (editing && !loaded.data)} data-testid="telegram-submit">
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
