import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../lib/toast';
import type { User } from '@one-hub/contract';
import { api, ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';

export default function LoginPage() {
  const { t } = useTranslation();
  const { user, setUser } = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (user) return <Navigate to="/panel" replace />;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError('');
    try {
      await api<User>('/api/user/login', { method: 'POST', json: { username: form.get('username'), password: form.get('password') } });
      setUser(await api<User>('/api/user/self'));
      toast(t('login.ok'), 'success');
      navigate('/panel');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('common.unableServer'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', placeItems: 'center', px: 2, py: { xs: 4, md: 10 } }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h5" sx={{ fontWeight: 800 }}>
            {t('login.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {t('login.subtitle')}
          </Typography>
          <Stack component="form" spacing={2} onSubmit={submit}>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField name="username" label={t('login.username')} autoComplete="username" required fullWidth />
            <TextField name="password" label={t('login.password')} type="password" autoComplete="current-password" required fullWidth />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {t('login.submit')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
