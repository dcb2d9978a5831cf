import { useMemo } from 'react';
import { Autocomplete, Button, Checkbox, Chip, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../lib/toast';
import { splitModels } from './channel-form';
import type { ModelOption } from './use-channel-lookups';

interface Props {
  value: string[];
  onChange: (models: string[]) => void;
  options: ModelOption[];
  /** Models the chosen type's provider is priced for ("fill channel models"). */
  typeModels: string[];
  disabled?: boolean;
  error?: string;
  onFetch?: () => void;
}

/** Models: free entry (a comma splits), options grouped by owner with checkboxes, chips copy on click. */
export default function ModelsField({ value, onChange, options, typeModels, disabled, error, onFetch }: Props) {
  const { t } = useTranslation('channel');
  const owners = useMemo(() => new Map(options.map((o) => [o.id, o.owned_by])), [options]);
  return (
    <Stack spacing={1}>
      <Autocomplete
        multiple
        freeSolo
        disableCloseOnSelect
        disabled={disabled}
        options={options.map((o) => o.id)}
        groupBy={(id) => owners.get(id) ?? ''}
        value={value}
        onChange={(_e, v) => onChange(splitModels(v))}
        renderOption={(props, option, { selected }) => {
          const { key, ...rest } = props as typeof props & { key: string };
          return (
            <li key={key} {...rest}>
              <Checkbox size="small" checked={selected} sx={{ mr: 1, p: 0.5 }} />
              {option}
            </li>
          );
        }}
        renderValue={(models, getItemProps) =>
          models.map((m, index) => {
            const { key, ...item } = getItemProps({ index });
            return <Chip key={key} size="small" label={m} {...item} onClick={() => void copyText(m, m)} />;
          })
        }
        renderInput={(params) => <TextField {...params} label={t('models')} error={Boolean(error)} helperText={error ?? t('modelsHelp')} slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'channel-models-input' } }} />}
      />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, '& > *': { m: '0 !important' } }}>
        <Button size="small" variant="outlined" onClick={() => void copyText(value.join(','), t('models'))} disabled={value.length === 0}>
          {t('copyModels')}
        </Button>
        <Button size="small" variant="outlined" disabled={disabled || typeModels.length === 0} onClick={() => onChange(splitModels([...value, ...typeModels]))}>
          {t('fillModels')}
        </Button>
        {onFetch && (
          <Button size="small" variant="outlined" disabled={disabled} onClick={onFetch} data-testid="channel-fetch-models">
            {t('fetchModels')}
          </Button>
        )}
        <Button size="small" color="inherit" disabled={disabled || value.length === 0} onClick={() => onChange([])}>
          {t('clearModels')}
        </Button>
      </Stack>
    </Stack>
  );
}
