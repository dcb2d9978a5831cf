import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Box, Button, Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import PasswordField from '../../components/PasswordField';
import { changedEntries, checkEntries, draftsFrom, entryBounds, isSecret, type FieldSpec } from './option-draft';
import { useSaveOptions, type OptionMap } from './use-options';

interface Props {
  fields: readonly FieldSpec[];
  options: OptionMap;
  /** i18n key of the Save button (`save` by default). */
  saveLabel?: string;
  /** Shown beside the Save button (a preview toggle and its panel). */
  children?: (drafts: Record<string, string>) => ReactNode;
  testId?: string;
}

/** A section's text fields with one Save button that sends only the keys whose value changed. */
export function OptionFields({ fields, options, saveLabel = 'save', children, testId }: Props) {
  const { t } = useTranslation('setting');
  const save = useSaveOptions();
  const initial = useMemo(() => draftsFrom(fields, options), [fields, options]);
  const [drafts, setDrafts] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => setDrafts(initial), [initial]);

  const submit = async () => {
    const entries = changedEntries(fields, options, drafts);
    const problems = checkEntries(fields, entries);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    await save(entries, entries.length ? t('saved') : undefined);
    setBusy(false);
  };

  const input = (f: FieldSpec) => {
    const common = {
      name: f.key,
      label: t(`field.${f.key}`),
      value: drafts[f.key] ?? '',
      onChange: (e: { target: { value: string } }) => setDrafts((d) => ({ ...d, [f.key]: e.target.value })),
      error: Boolean(errors[f.key]),
      helperText: errors[f.key] ? t(errors[f.key], { ns: 'common', ...entryBounds(f) }) : t(`hint.${f.key}`, { defaultValue: '' }) || undefined,
      fullWidth: true,
      placeholder: isSecret(f.key) || f.optional ? t('blankUnchanged') : t(`placeholder.${f.key}`, { defaultValue: '' }) || undefined,
    };
    if (f.input === 'check') {
      return (
        <FormControlLabel
          key={f.key}
          label={common.label}
          sx={{ gridColumn: '1 / -1' }}
          control={<Checkbox name={f.key} checked={common.value === 'true'} onChange={(e) => setDrafts((d) => ({ ...d, [f.key]: String(e.target.checked) }))} />}
        />
      );
    }
    if (isSecret(f.key) || f.input === 'secret') return <PasswordField key={f.key} {...common} autoComplete="new-password" />;
    if (f.input === 'select') {
      return (
        <TextField key={f.key} select {...common}>
          {(f.choices ?? []).map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
      );
    }
    const multiline = f.input === 'area' || f.input === 'json' || f.input === 'lines';
    return (
      <TextField
        key={f.key}
        {...common}
        type={f.input === 'number' ? 'number' : 'text'}
        multiline={multiline}
        minRows={multiline ? 4 : undefined}
        maxRows={multiline ? 16 : undefined}
        slotProps={{ htmlInput: { spellCheck: false, style: f.input === 'json' ? { fontFamily: 'monospace', fontSize: 13 } : undefined } }}
        sx={{ gridColumn: f.wide || multiline ? '1 / -1' : undefined }}
      />
    );
  };

  return (
    <Stack spacing={2} data-testid={testId}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>{fields.map(input)}</Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Button variant="contained" onClick={() => void submit()} disabled={busy}>
          {t(saveLabel)}
        </Button>
        {children?.(drafts)}
      </Box>
    </Stack>
  );
}
