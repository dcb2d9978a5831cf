import { useEffect, useMemo, useState } from 'react';
import { Autocomplete, Box, Button, Chip, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSaveOptions, type OptionMap } from './use-options';

export const splitDomains = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);

/** The e-mail domain whitelist: free-entry chips saved comma-joined. */
export function DomainWhitelist({ options }: { options: OptionMap }) {
  const { t } = useTranslation('setting');
  const save = useSaveOptions();
  const initial = useMemo(() => splitDomains(options.EmailDomainWhitelist), [options.EmailDomainWhitelist]);
  const [domains, setDomains] = useState(initial);
  useEffect(() => setDomains(initial), [initial]);
  const joined = domains.join(',');
  return (
    <Stack spacing={2}>
      <Autocomplete
        multiple
        freeSolo
        options={[] as string[]}
        value={domains}
        onChange={(_e, v) => setDomains([...new Set(v.map((d) => d.trim()).filter(Boolean))])}
        renderValue={(value, getItemProps) => value.map((d, index) => <Chip size="small" label={d} {...getItemProps({ index })} key={d} />)}
        renderInput={(params) => <TextField {...params} name="EmailDomainWhitelist" label={t('field.EmailDomainWhitelist')} helperText={t('hint.EmailDomainWhitelist')} />}
      />
      <Box>
        <Button variant="contained" disabled={joined === initial.join(',')} onClick={() => void save([['EmailDomainWhitelist', joined]])}>
          {t('saveWhitelist')}
        </Button>
      </Box>
    </Stack>
  );
}
