import { useEffect, useState } from 'react';
import { IconButton, InputAdornment, Stack, Switch, TextField, Tooltip, Typography } from '@mui/material';
import Check from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import { CHANNEL_STATUS, formatTimestamp, type Channel } from '@one-hub/contract';
import { api } from '../../lib/api';
import { showError, showInfo, showSuccess } from '../../lib/toast';
import { QuotaText, StatusChip } from '../../components/data';
import { refreshBalance, testChannel } from './channel-api';
import { formatBalance, responseColor } from './channel-ui';

/** Runs a channel test and says how long it took (console-screens §3.3). Answers the seconds, or null. */
export async function runTest(channel: Pick<Channel, 'id' | 'name' | 'test_model'>, model: string | undefined, t: (k: string, o?: Record<string, unknown>) => string): Promise<number | null> {
  const m = model || channel.test_model;
  if (!m) {
    showError(new Error(t('setTestModel')));
    return null;
  }
  try {
    const r = await testChannel(channel.id, m);
    if (!r.success) {
      showError(new Error(r.message));
      return null;
    }
    showInfo(t('testOk', { name: channel.name, model: m, time: r.time.toFixed(2) }));
    return r.time;
  } catch (e) {
    showError(e);
    return null;
  }
}

export function StatusCell({ channel, onChanged }: { channel: Channel; onChanged: () => void }) {
  const { t } = useTranslation('channel');
  const [busy, setBusy] = useState(false);
  const enabled = channel.status === CHANNEL_STATUS.enabled;
  const caption = enabled ? t('status.enabled') : channel.status === CHANNEL_STATUS.autoDisabled ? t('status.auto') : t('status.manual');
  const toggle = async () => {
    setBusy(true);
    try {
      await api('/api/channel/', { method: 'PUT', json: { id: channel.id, status: enabled ? CHANNEL_STATUS.manuallyDisabled : CHANNEL_STATUS.enabled } });
      showSuccess(t('saved'));
      onChanged();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" sx={{ alignItems: 'center' }}>
      <Switch size="small" checked={enabled} disabled={busy} onChange={() => void toggle()} slotProps={{ input: { 'aria-label': t('statusLabel') } }} />
      <Tooltip title={channel.disabled_reason || ''}>
        <Typography variant="caption" sx={{ fontWeight: enabled ? 700 : 400, color: enabled ? 'success.main' : 'text.secondary', whiteSpace: 'nowrap' }}>
          {caption}
        </Typography>
      </Tooltip>
    </Stack>
  );
}

/** Last response time; clicking tests the channel with its test model and shows the new time. */
export function ResponseTimeChip({ channel }: { channel: Channel }) {
  const { t } = useTranslation('channel');
  const [ms, setMs] = useState(channel.response_time);
  const [testedAt, setTestedAt] = useState(channel.test_time);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setMs(channel.response_time);
    setTestedAt(channel.test_time);
  }, [channel.response_time, channel.test_time]);
  const tested = testedAt > 0;
  const click = async () => {
    setBusy(true);
    const seconds = await runTest(channel, undefined, t);
    setBusy(false);
    if (seconds !== null) {
      setMs(Math.round(seconds * 1000));
      setTestedAt(Math.floor(Date.now() / 1000));
    }
  };
  const tip = `${t('clickToTest')}${tested ? ` · ${t('lastTested', { time: formatTimestamp(testedAt) })}` : ''}`;
  return (
    <Tooltip title={tip}>
      <span data-testid="response-time">
        <StatusChip label={busy ? t('testing') : tested ? `${(ms / 1000).toFixed(2)} s` : t('notTested')} color={responseColor(ms, tested)} onClick={() => void click()} />
      </span>
    </Tooltip>
  );
}

/** Used quota and, below, the balance; clicking the balance asks the provider again. */
export function BalanceCell({ channel }: { channel: Channel }) {
  const { t } = useTranslation('channel');
  const [balance, setBalance] = useState(channel.balance);
  useEffect(() => setBalance(channel.balance), [channel.balance]);
  const click = async () => {
    try {
      const r = await refreshBalance(channel.id);
      if (!r.success) return showError(new Error(r.message));
      setBalance(r.balance);
      showSuccess(t('balanceUpdated'));
    } catch (e) {
      showError(e);
    }
  };
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <QuotaText quota={channel.used_quota} />
      <Tooltip title={t('clickToRefreshBalance')}>
        <span>
          <StatusChip label={formatBalance(channel.type, balance)} color="info" variant="outlined" onClick={() => void click()} />
        </span>
      </Tooltip>
    </Stack>
  );
}

/** A small number field with a ✓ that saves only a changed, valid value (fixes §14.11: no negative sneaks through). */
export function InlineNumber({ value, min, label, onSave }: { value: number; min: number; label: string; onSave: (v: number) => Promise<void> }) {
  const { t } = useTranslation('channel');
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const n = Number(text);
  const invalid = text.trim() === '' || !Number.isInteger(n) || n < min;
  const [tried, setTried] = useState(false);
  const save = async () => {
    // An invalid value is named at the field (not as a toast per attempt).
    setTried(true);
    if (invalid) return;
    if (n === value) return;
    await onSave(n);
  };
  return (
    <TextField
      size="small"
      type="number"
      value={text}
      error={invalid}
      helperText={invalid && tried ? t('errors.atLeast', { label, min }) : undefined}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && void save()}
      // Wide enough for a four-digit value beside the ✓ (two digits were clipped at 96 px).
      sx={{ width: 124 }}
      slotProps={{
        htmlInput: { min, 'aria-label': label },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton size="small" edge="end" aria-label={t('saveValue', { label })} disabled={String(value) === text} onClick={() => void save()}>
                <Check fontSize="small" />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
