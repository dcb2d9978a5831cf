import { TextField } from '@mui/material';
import { isValidJson } from '@one-hub/contract';
import { useTranslation } from 'react-i18next';

export interface JsonFieldProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  helperText?: string;
  placeholder?: string;
  rows?: number;
  disabled?: boolean;
  /** An extra rule (object-of-strings, array, …): returns an error text or undefined. */
  validate?: (parsed: unknown) => string | undefined;
  name?: string;
}

/** What is wrong with a JSON text, or undefined; an empty text is fine. */
export function jsonError(text: string, validate?: (parsed: unknown) => string | undefined): 'json' | string | undefined {
  if (text.trim() === '') return undefined;
  if (!isValidJson(text)) return 'json';
  return validate?.(JSON.parse(text));
}

/** A monospace JSON textarea that says when the text does not parse. */
export function JsonField({ label, value, onChange, helperText, placeholder, rows = 4, disabled, validate, name }: JsonFieldProps) {
  const { t } = useTranslation();
  const problem = jsonError(value, validate);
  const message = problem === 'json' ? t('validation.json') : problem;
  return (
    <TextField
      label={label}
      name={name}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      multiline
      minRows={rows}
      fullWidth
      disabled={disabled}
      error={Boolean(problem)}
      helperText={message ?? helperText}
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } } }}
    />
  );
}
