import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Link, Stack, Typography } from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircleRounded';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAY_ACTION, type PayRequest } from '@one-hub/contract';
import { api, apiWithMessage, ApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-handler';
import { useAppSelector } from '../../../store';
import QrCode from './QrCode';

export const POLL_MS = 3000;

export interface PayDialogProps {
  /** The order to start (a top-up amount or a subscription plan); null keeps the dialog closed. */
  order: { uuid: string; amount: number } | { uuid: string; plan_id: number } | null;
  onClose: () => void;
}

/** Opens the gateway's page in a new tab by submitting a hidden form (GET or POST with the params). */
export function submitPayForm(data: NonNullable<PayRequest['data']>): void {
  const form = document.createElement('form');
  form.action = data.url;
  form.method = (data.method ?? 'GET').toUpperCase() === 'POST' ? 'POST' : 'GET';
  form.target = '_blank';
  form.style.display = 'none';
  for (const [name, value] of Object.entries(data.params ?? {})) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = String(value);
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}

type Stage = { kind: 'starting' } | { kind: 'failed'; text: string } | { kind: 'started'; pay: PayRequest; message: string } | { kind: 'paid' };

/**
 * The pay dialog (console-screens §3.8): creates the order, then redirects or shows a QR code and
 * polls the order every 3 s until it is paid. Only the close button closes it; closing stops polling.
 */
export default function PayDialog({ order, onClose }: PayDialogProps) {
  const { t } = useTranslation('topup');
  const logo = useAppSelector((s) => s.siteInfo.logo);
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ kind: 'starting' });
  const started = useRef<object | null>(null);

  useEffect(() => {
    if (!order || started.current === order) return;
    started.current = order;
    setStage({ kind: 'starting' });
    apiWithMessage<PayRequest>('plan_id' in order ? '/api/plan/buy' : '/api/user/order', { json: order })
      .then(({ data, message }) => {
        setStage({ kind: 'started', pay: data, message });
        if (data.type === PAY_ACTION.redirect && data.data) submitPayForm(data.data);
      })
      .catch((e) => setStage({ kind: 'failed', text: describeError(e, t).text }));
  }, [order, t]);

  const tradeNo = stage.kind === 'started' && stage.pay.type !== 0 ? stage.pay.trade_no : '';
  useEffect(() => {
    if (!tradeNo) return;
    const timer = setInterval(() => {
      // The answer is a success only once the order is paid; anything else means "keep waiting".
      api('/api/user/order/status', { query: { trade_no: tradeNo } })
        .then(() => {
          setStage({ kind: 'paid' });
          void queryClient.invalidateQueries({ queryKey: ['user-self'] });
          void queryClient.invalidateQueries({ queryKey: ['plan-self'] });
        })
        .catch((e: unknown) => {
          // A closed or failed order will never be paid: stop waiting and say so.
          const status = e instanceof ApiError ? e.serverMessage : undefined;
          if (status === 'closed' || status === 'failed') setStage({ kind: 'failed', text: t(status === 'closed' ? 'orderClosed' : 'orderFailed') });
        });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [tradeNo, queryClient, t]);

  const close = () => {
    started.current = null;
    onClose();
  };
  return (
    // No onClose: Escape and the backdrop do nothing, only the close button exits.
    <Dialog open={order !== null} maxWidth="xs" fullWidth data-testid="pay-dialog">
      <DialogTitle>{t('payTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 1 }}>
          {stage.kind === 'starting' && (
            <>
              {logo && <Box component="img" src={logo} alt="" sx={{ height: 48 }} />}
              <CircularProgress />
              <Typography>{t('starting')}</Typography>
            </>
          )}
          {stage.kind === 'failed' && <Alert severity="error" sx={{ width: '100%' }}>{stage.text}</Alert>}
          {stage.kind === 'started' && <Started pay={stage.pay} message={stage.message} />}
          {stage.kind === 'paid' && (
            <>
              <CheckCircle color="success" sx={{ fontSize: 96 }} />
              <Typography variant="h6" data-testid="pay-succeeded">
                {t('paid')}
              </Typography>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} data-testid="pay-close">
          {t('close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Started({ pay, message }: { pay: PayRequest; message: string }) {
  const { t } = useTranslation('topup');
  const summary = (
    <Typography variant="body2" color="text.secondary">
      {t('orderLine', { tradeNo: pay.trade_no, amount: pay.order.order_amount.toFixed(2), currency: pay.order.order_currency })}
    </Typography>
  );
  if (!pay.data || pay.type === 0) {
    // No provider could start a payment: the order exists but nothing is charged.
    return (
      <>
        <Alert severity="warning" sx={{ width: '100%', textAlign: 'left' }} data-testid="pay-not-started">
          {message || t('notStarted')}
        </Alert>
        {summary}
      </>
    );
  }
  const data = pay.data;
  if (pay.type === PAY_ACTION.qrcode) {
    const alipay = /^https?:\/\/qr\.alipay\.com\//.test(data.url);
    return (
      <>
        <QrCode value={data.url} />
        <Typography>{t('scanToPay')}</Typography>
        {alipay && (
          <Button variant="outlined" href={`alipays://platformapi/startapp?saId=10000007&qrcode=${encodeURIComponent(data.url)}`}>
            {t('openAlipay')}
          </Button>
        )}
        {summary}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CircularProgress size={16} />
          <Typography variant="body2">{t('waiting')}</Typography>
        </Stack>
      </>
    );
  }
  return (
    <>
      <Typography>{t('redirected')}</Typography>
      <Link component="button" onClick={() => submitPayForm(data)} data-testid="pay-redirect-link">
        {t('notRedirected')}
      </Link>
      {summary}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CircularProgress size={16} />
        <Typography variant="body2">{t('waiting')}</Typography>
      </Stack>
    </>
  );
}
