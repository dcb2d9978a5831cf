import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { currencyToQuota, quotaChangeForm, quotaToCurrency, type User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { describeError, notifyServerMessage } from '../../lib/error-handler';
import { fieldErrors } from '../../lib/form-errors';
import { showSuccess } from '../../lib/toast';
import { useAppSelector } from '../../store';

/**
 * Changes a user's quota by a signed dollar amount (console-screens §3.9): the end hint shows the points
 * sent; 0 and deductions past the balance are refused before anything is sent (quirk §14.2).
 */
export default function QuotaDialog({ user, onClose, onSaved }: { user: User | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('user');
  const perUnit = useAppSelector((s) => s.siteInfo.quota_per_unit);
  const [amount, setAmount] = useState('');
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);
  const balance = user ? user.quota / (perUnit || 1) : 0;

  useEffect(() => {
    setAmount('');
    setRemark('');
    setErrors({});
    setServerError('');
  }, [user]);

  const save = async () => {
    if (!user) return;
    const parsed = quotaChangeForm(balance).safeParse({ amount, remark });
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (!parsed.success) return;
    setSaving(true);
    setServerError('');
    try {
      await api(`/api/user/quota/${user.id}`, { json: { quota: currencyToQuota(parsed.data.amount, perUnit), remark: parsed.data.remark } });
      showSuccess(t('quotaChanged'));
      onSaved();
      onClose();
    } catch (e) {
      // shown once, inline in the dialog that stays open
      setServerError(describeError(e, t).text);
      notifyServerMessage(e);
    }
    setSaving(false);
  };

  const dollars = Number(amount);
  const points = amount.trim() && Number.isFinite(dollars) ? currencyToQuota(dollars, perUnit) : 0;
  return (
    <Dialog open={user !== null} onClose={onClose} maxWidth="xs" fullWidth data-testid="quota-dialog">
      <DialogTitle>{t('quotaTitle', { name: user?.username ?? '' })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          <Alert severity="info">{t('quotaHelp', { max: quotaToCurrency(Math.max(0, user?.quota ?? 0), perUnit) })}</Alert>
          <TextField
            name="amount"
            type="number"
            label={t('amount')}
            value={amount}
            autoFocus
            onChange={(e) => setAmount(e.target.value)}
            error={Boolean(errors.amount)}
            helperText={errors.amount ? errors.amount : t('amountHint')}
            slotProps={{
              input: {
                startAdornment: <InputAdornment position="start">$</InputAdornment>,
                endAdornment: <InputAdornment position="end">{t('points', { points })}</InputAdornment>,
              },
            }}
          />
          <TextField name="remark" label={t('remark')} value={remark} onChange={(e) => setRemark(e.target.value)} error={Boolean(errors.remark)} helperText={errors.remark ? errors.remark : undefined} />
          {serverError && <Alert severity="error">{serverError}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel', { ns: 'common' })}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving} data-testid="quota-submit">
          {t('common.submit', { ns: 'common' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
