import { useState } from 'react';
import { Avatar, Button, Card, Chip, Grid, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { showError, showSuccess } from '../../../lib/toast';
import { useAppSelector } from '../../../store';
import { useServerText } from '../../../lib/server-text';
import { profileFormError } from '../profile-form';

/** Who the user is, and the display name / password form (PUT /api/user/self). */
export default function GeneralTab({ user, onSaved }: { user: User; onSaved: () => void }) {
  const { t } = useTranslation('profile');
  const group = useAppSelector((s) => s.account.userGroupMap[user.group]);
  const { groupName } = useServerText(); // a seeded group's stored name ("默认分组") in the reader's language
  const [form, setForm] = useState({ display_name: user.display_name, original_password: '', password: '', password2: '' });
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });

  const submit = async () => {
    const problem = profileFormError(form);
    if (problem) return showError(new Error(problem.message ?? t(problem.key)));
    setBusy(true);
    try {
      const json = { ...user, display_name: form.display_name.trim(), password: form.password, original_password: form.password ? form.original_password : '' };
      await api('/api/user/self', { method: 'PUT', json });
      showSuccess(t('saved'));
      setForm({ ...form, original_password: '', password: '', password2: '' });
      onSaved();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Grid container spacing={2.5}>
      <Grid size={{ xs: 12, md: 4 }}>
        <Card sx={{ p: 3, textAlign: 'center' }}>
          <Avatar sx={{ width: 100, height: 100, mx: 'auto', mb: 2, fontSize: 40, bgcolor: 'primary.main' }}>{user.username.charAt(0).toUpperCase()}</Avatar>
          <Typography variant="h6" data-testid="profile-username">
            {user.username}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 1.5 }}>
            {user.email || t('noEmail')}
          </Typography>
          <Chip
            color="primary"
            variant="outlined"
            label={t('groupChip', { name: groupName(user.group, group?.name), ratio: group?.ratio ?? 1, rate: group?.api_rate ?? '-' })}
            data-testid="profile-group"
            // the whole line wraps inside the narrow card instead of ending in "…"
            sx={{ height: 'auto', maxWidth: '100%', '& .MuiChip-label': { whiteSpace: 'normal', textAlign: 'center', py: 0.5 } }}
          />
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <Card sx={{ p: 3 }}>
          <Typography variant="h6" sx={{ mb: 2 }}>
            {t('personalInfo')}
          </Typography>
          <Stack spacing={2} component="form" onSubmit={(e) => (e.preventDefault(), void submit())}>
            <TextField label={t('username')} value={user.username} disabled />
            <TextField label={t('displayName')} value={form.display_name} onChange={set('display_name')} slotProps={{ htmlInput: { 'data-testid': 'display-name', maxLength: 20 } }} />
            <TextField label={t('originalPassword')} type="password" autoComplete="current-password" value={form.original_password} onChange={set('original_password')} helperText={t('originalPasswordHint')} slotProps={{ htmlInput: { 'data-testid': 'original-password' } }} />
            <TextField label={t('password')} type="password" autoComplete="new-password" value={form.password} onChange={set('password')} helperText={t('passwordHint')} slotProps={{ htmlInput: { 'data-testid': 'new-password' } }} />
            <TextField label={t('password2')} type="password" autoComplete="new-password" value={form.password2} onChange={set('password2')} slotProps={{ htmlInput: { 'data-testid': 'new-password2' } }} />
            <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
              <Button type="submit" variant="contained" disabled={busy} data-testid="profile-submit">
                {t('submit')}
              </Button>
            </Stack>
          </Stack>
        </Card>
      </Grid>
    </Grid>
  );
}
