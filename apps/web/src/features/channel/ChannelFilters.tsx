import { MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { CHANNEL_TYPES } from '@one-hub/contract';

export interface ChannelFilterState {
  name: string;
  models: string;
  test_model: string;
  key: string;
  other: string;
  type: number;
  status: number;
  group: string;
  filter_tag: number;
  tag: string;
}
export const NO_FILTERS: ChannelFilterState = { name: '', models: '', test_model: '', key: '', other: '', type: 0, status: 0, group: '', filter_tag: 0, tag: '' };

/** The query a filter set sends: "All" (0 / '') is left out. */
export function filterQuery(f: ChannelFilterState): Record<string, string | number | undefined> {
  return {
    name: f.name || undefined,
    models: f.models || undefined,
    test_model: f.test_model || undefined,
    key: f.key || undefined,
    other: f.other || undefined,
    type: f.type || undefined,
    status: f.status || undefined,
    group: f.group || undefined,
    filter_tag: f.filter_tag,
    tag: f.tag || undefined,
  };
}

/** The ten filter fields of the channel list (console-screens §3.3). */
export default function ChannelFilters({ value, onChange, groups, tags }: { value: ChannelFilterState; onChange: (f: ChannelFilterState) => void; groups: string[]; tags: string[] }) {
  const { t } = useTranslation('channel');
  const text = (k: 'name' | 'models' | 'test_model' | 'key' | 'other', label: string) => <TextField size="small" label={label} value={value[k]} onChange={(e) => onChange({ ...value, [k]: e.target.value })} slotProps={{ htmlInput: { 'data-testid': `filter-${k}` } }} />;
  const select = (k: 'type' | 'status' | 'filter_tag' | 'group' | 'tag', label: string, items: { v: string | number; l: string }[]) => (
    <TextField select size="small" label={label} value={value[k]} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} onChange={(e) => onChange({ ...value, [k]: typeof value[k] === 'number' ? Number(e.target.value) : e.target.value })}>
      {items.map((i) => (
        <MenuItem key={String(i.v)} value={i.v}>
          {i.l}
        </MenuItem>
      ))}
    </TextField>
  );
  const all = t('all');
  return (
    <>
      {text('name', t('name'))}
      {text('models', t('modelName'))}
      {text('test_model', t('testModel'))}
      {text('key', t('key'))}
      {text('other', t('otherShort'))}
      {select('type', t('type'), [{ v: 0, l: all }, ...CHANNEL_TYPES.map((c) => ({ v: c.id, l: c.name }))])}
      {select('status', t('statusLabel'), [
        { v: 0, l: all },
        { v: 1, l: t('status.enabled') },
        { v: 2, l: t('status.disabled') },
        { v: 3, l: t('status.speedDisabled') },
      ])}
      {select('group', t('group'), [{ v: '', l: all }, ...groups.map((g) => ({ v: g, l: g }))])}
      {select('filter_tag', t('tagFilter'), [
        { v: 0, l: all },
        { v: 1, l: t('tagFilterHide') },
        { v: 2, l: t('tagFilterOnly') },
      ])}
      {select('tag', t('tag'), [{ v: '', l: all }, ...tags.map((g) => ({ v: g, l: g }))])}
    </>
  );
}
