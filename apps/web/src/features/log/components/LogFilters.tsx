import { TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import DateTimeRangeField from '../../../components/dates/DateTimeRangeField';

export interface LogFilterValues {
  token_name: string;
  model_name: string;
  source_ip: string;
  start_timestamp: number;
  end_timestamp: number;
  channel_id: string;
  username: string;
}

/**
 * The filter fields; channel and username only for administrators. An administrator's eleven cells
 * fill two rows of the six-column grid (logFilterColumns): the time range and its presets, then the
 * five text fields, the username taking two cells (with five columns "Username" sat alone on a third row).
 */
export default function LogFilters({ value, onChange, admin }: { value: LogFilterValues; onChange: (v: LogFilterValues) => void; admin: boolean }) {
  const { t } = useTranslation('log');
  const text = (field: 'token_name' | 'model_name' | 'source_ip' | 'channel_id' | 'username', label: string, span = 1) => (
    <TextField
      key={field}
      size="small"
      label={label}
      type={field === 'channel_id' ? 'number' : 'text'}
      value={value[field]}
      onChange={(e) => onChange({ ...value, [field]: e.target.value })}
      slotProps={{ htmlInput: { 'data-testid': `filter-${field}` } }}
      sx={span > 1 ? { gridColumn: { lg: `span ${span}` } } : undefined}
    />
  );
  const range = (
    <DateTimeRangeField
        testId="filter-time"
        start={value.start_timestamp}
        end={value.end_timestamp}
        onChange={(start_timestamp, end_timestamp) => onChange({ ...value, start_timestamp, end_timestamp })}
        startLabel={t('startTime')}
        endLabel={t('endTime')}
      />
  );
  return (
    <>
      {admin && range}
      {text('token_name', t('col.token'))}
      {text('model_name', t('col.model'))}
      {text('source_ip', t('col.sourceIp'))}
      {!admin && range}
      {admin && text('channel_id', t('channelId'))}
      {admin && text('username', t('username'), 2)}
    </>
  );
}

/** Grid columns of the log filter bar on wide screens (see LogFilters). */
export const logFilterColumns = (admin: boolean) => (admin ? 6 : 5);
