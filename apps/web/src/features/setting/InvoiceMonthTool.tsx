import { useState } from 'react';
import { Button, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';

const pad = (n: number) => String(n).padStart(2, '0');
/** 'YYYY-MM' of the month `offset` months from the one holding `now` (UTC, like the server's billing months). */
export function monthInput(now: Date, offset = 0): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

/** Root's monthly-bill tools (console-screens §3.6): bill a past month once, or rebuild it. */
export function InvoiceMonthTool() {
  const { t } = useTranslation('setting');
  const lastMonth = monthInput(new Date(), -1);
  const [month, setMonth] = useState(lastMonth);
  const [busy, setBusy] = useState(false);
  const valid = /^\d{4}-\d{2}$/.test(month) && month <= lastMonth;
  const run = async (action: 'gen' | 'update') => {
    setBusy(true);
    try {
      await api(`/api/option/invoice/${action}/${month}-01`, { method: 'POST' });
      showSuccess(t(action === 'gen' ? 'invoiceGenerated' : 'invoiceUpdated', { month }));
    } catch (e) {
      showError(e);
    }
    setBusy(false);
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <TextField
        type="month"
        label={t('invoiceMonth')}
        value={month}
        onChange={(e) => setMonth(e.target.value)}
        error={Boolean(month) && !valid}
        helperText={month && !valid ? t('invoiceMonthPast') : t('invoiceMonthHint')}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: lastMonth, 'data-testid': 'invoice-month' } }}
        sx={{ minWidth: 220, maxWidth: { sm: 360 } }}
      />
      <Stack direction="row" spacing={1} sx={{ pb: { sm: 2.5 } }}>
        <Button variant="contained" onClick={() => void run('gen')} disabled={busy || !valid} data-testid="invoice-gen">
          {t('invoiceGenerate')}
        </Button>
        <Button variant="outlined" onClick={() => void run('update')} disabled={busy || !valid} data-testid="invoice-update">
          {t('invoiceRebuild')}
        </Button>
      </Stack>
    </Stack>
  );
}
