import { useState } from 'react';
import { FormControlLabel, FormHelperText, Stack, Switch } from '@mui/material';
import type { OptionKey } from '@one-hub/contract';
import { useTranslation } from 'react-i18next';
import { useSaveOptions, type OptionMap } from './use-options';

interface Props {
  name: OptionKey;
  options: OptionMap;
  /** Asked before turning the option off; answers whether to go on. */
  confirmOff?: () => Promise<boolean>;
}

/** A switch whose key ends in `Enabled`: saved at once, as the inverse of the stored value (console-screens §3.6). */
export function OptionSwitch({ name, options, confirmOff }: Props) {
  const { t } = useTranslation('setting');
  const save = useSaveOptions();
  const [busy, setBusy] = useState(false);
  const on = options[name] === 'true';
  const hint = t(`hint.${name}`, { defaultValue: '' });

  const toggle = async () => {
    if (on && confirmOff && !(await confirmOff())) return;
    setBusy(true);
    await save([[name, String(!on)]], t('switched'));
    setBusy(false);
  };

  return (
    <Stack spacing={0} sx={{ minWidth: 0 }}>
      <FormControlLabel
        control={<Switch checked={on} disabled={busy} onChange={() => void toggle()} slotProps={{ input: { name, 'aria-label': t(`field.${name}`) } as object }} />}
        label={t(`field.${name}`)}
        sx={{ mr: 0 }}
      />
      {hint && <FormHelperText sx={{ mt: -0.5, ml: 6 }}>{hint}</FormHelperText>}
    </Stack>
  );
}

/** Switches laid out in a responsive grid. */
export function SwitchGrid({ names, options, confirmOff }: { names: OptionKey[]; options: OptionMap; confirmOff?: Partial<Record<OptionKey, () => Promise<boolean>>> }) {
  return (
    <Stack sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
      {names.map((n) => (
        <OptionSwitch key={n} name={n} options={options} confirmOff={confirmOff?.[n]} />
      ))}
    </Stack>
  );
}
