import { useState } from 'react';
import { Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Close from '@mui/icons-material/Close';
import DataObject from '@mui/icons-material/DataObject';
import ViewList from '@mui/icons-material/ViewListOutlined';
import { useTranslation } from 'react-i18next';
import { JsonField } from '../../components/data';

interface Props {
  label: string;
  /** JSON object text: what the form keeps and sends. */
  value: string;
  onChange: (text: string) => void;
  helperText?: string;
  placeholder?: string;
  disabled?: boolean;
  validate?: (parsed: unknown) => string | undefined;
  name?: string;
  keyLabel: string;
  valueLabel: string;
}

/** Rows of a flat string object, or null when the text is not one (then only the JSON editor can show it). */
export function toRows(text: string): [string, string][] | null {
  if (!text.trim()) return [];
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.every(([, x]) => typeof x === 'string') ? (entries as [string, string][]) : null;
  } catch {
    return null;
  }
}

/** Rows back to text; rows without a key are kept while typing but left out of the object. */
export function fromRows(rows: [string, string][]): string {
  const kept = rows.filter(([k]) => k.trim());
  return kept.length ? JSON.stringify(Object.fromEntries(kept.map(([k, v]) => [k.trim(), v.trim()])), null, 2) : '';
}

/** A string map as key/value rows ("add"), with a JSON view ("edit as JSON") for pasting a whole object. */
export default function KeyValueField(props: Props) {
  const { t } = useTranslation('channel');
  const parsed = toRows(props.value);
  const [asJson, setAsJson] = useState(false);
  // rows being typed, including ones without a key yet
  const [draft, setDraft] = useState<[string, string][] | null>(null);
  const json = asJson || parsed === null;
  // a value changed from outside (the model selector's mapping) replaces the rows being typed
  const rows = draft && fromRows(draft) === props.value ? draft : (parsed ?? []);
  const update = (next: [string, string][]) => {
    setDraft(next);
    props.onChange(fromRows(next));
  };

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>{props.label}</Typography>
        {!json && (
          <Button size="small" startIcon={<Add />} disabled={props.disabled} onClick={() => update([...rows, ['', '']])}>
            {t('kv.add')}
          </Button>
        )}
        <Button
          size="small"
          startIcon={json ? <ViewList /> : <DataObject />}
          disabled={props.disabled || (json && parsed === null)}
          onClick={() => {
            setDraft(null);
            setAsJson(!json);
          }}
        >
          {json ? t('kv.asRows') : t('kv.asJson')}
        </Button>
      </Stack>
      {json ? (
        <JsonField label={props.label} name={props.name} value={props.value} onChange={(v) => { setDraft(null); props.onChange(v); }} helperText={props.helperText} placeholder={props.placeholder} disabled={props.disabled} validate={props.validate} />
      ) : (
        <Stack spacing={1} data-testid={props.name ? `kv-${props.name}` : undefined}>
          {rows.length === 0 && <Typography variant="body2" color="text.secondary">{t('kv.empty')}</Typography>}
          {rows.map(([k, v], i) => (
            <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <TextField size="small" label={props.keyLabel} value={k} disabled={props.disabled} onChange={(e) => update(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))} sx={{ flex: 1 }} />
              <TextField size="small" label={props.valueLabel} value={v} disabled={props.disabled} onChange={(e) => update(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))} sx={{ flex: 1 }} />
              <IconButton size="small" aria-label={t('kv.remove')} disabled={props.disabled} onClick={() => update(rows.filter((_r, j) => j !== i))}>
                <Close fontSize="small" />
              </IconButton>
            </Stack>
          ))}
          {props.helperText && <Typography variant="caption" color="text.secondary">{props.helperText}</Typography>}
        </Stack>
      )}
    </Box>
  );
}
