import { useEffect, useMemo, useState } from 'react';
import {
  Box, Button, Checkbox, IconButton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Tooltip, Typography,
} from '@mui/material';
import AddRounded from '@mui/icons-material/AddRounded';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import CheckRounded from '@mui/icons-material/CheckRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import { useTranslation } from 'react-i18next';
import { ChatLinkForm, DEFAULT_CHAT_LINKS, parseChatLinks, sortChatLinks, type ChatLink } from '@one-hub/contract';
import { fieldErrors } from '../../lib/form-errors';
import { useSaveOptions, type OptionMap } from './use-options';

interface Row {
  id: number;
  link: ChatLink;
  /** The row's inputs while it is being edited. */
  edit?: { name: string; url: string; show: boolean; sort: string };
  errors?: Record<string, string>;
}

let nextId = 1;
// Listed in the order the token menus offer them (highest sort first).
const rowsFrom = (text: string | undefined): Row[] => sortChatLinks((parseChatLinks(text) ?? DEFAULT_CHAT_LINKS).map((link) => ({ ...link }))).map((link) => ({ id: nextId++, link }));

/** The chat-link grid (console-screens §3.6): inline rows with edit/save/cancel/delete, saved as the `ChatLinks` JSON. */
export function ChatLinksEditor({ options }: { options: OptionMap }) {
  const { t } = useTranslation('setting');
  const save = useSaveOptions();
  const stored = options.ChatLinks;
  const initial = useMemo(() => rowsFrom(stored), [stored]);
  const [rows, setRows] = useState(initial);
  useEffect(() => setRows(initial), [initial]);

  const update = (id: number, change: (r: Row) => Row) => setRows((rs) => rs.map((r) => (r.id === id ? change(r) : r)));
  const startEdit = (r: Row) => update(r.id, () => ({ ...r, edit: { name: r.link.name, url: r.link.url, show: r.link.show, sort: String(r.link.sort ?? 0) }, errors: {} }));
  const confirm = (r: Row) => {
    const parsed = ChatLinkForm.safeParse(r.edit);
    if (!parsed.success) {
      update(r.id, (x) => ({ ...x, errors: fieldErrors(parsed.error) }));
      return;
    }
    update(r.id, () => ({ id: r.id, link: parsed.data }));
  };
  const cancel = (r: Row) => (r.link.name ? update(r.id, () => ({ id: r.id, link: r.link })) : setRows((rs) => rs.filter((x) => x.id !== r.id)));
  const add = () => setRows((rs) => [...rs, { id: nextId++, link: { name: '', url: '', show: true, sort: 0 }, edit: { name: '', url: '', show: true, sort: '0' }, errors: {} }]);
  const editing = rows.some((r) => r.edit);

  const cellInput = (r: Row, field: 'name' | 'url' | 'sort') => (
    <TextField
      size="small"
      fullWidth
      name={`chat-link-${field}`}
      value={r.edit![field]}
      type={field === 'sort' ? 'number' : 'text'}
      onChange={(e) => update(r.id, (x) => ({ ...x, edit: { ...x.edit!, [field]: e.target.value } }))}
      error={Boolean(r.errors?.[field])}
      helperText={r.errors?.[field] ? r.errors[field] : undefined}
      slotProps={{ htmlInput: { 'aria-label': t(`chatLinks.${field}`) } }}
    />
  );

  return (
    <Box data-testid="chat-links">
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
        <Table size="small" sx={{ minWidth: 640 }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: '22%' }}>{t('chatLinks.name')}</TableCell>
              <TableCell>{t('chatLinks.url')}</TableCell>
              <TableCell align="center" sx={{ width: 110 }}>{t('chatLinks.show')}</TableCell>
              <TableCell sx={{ width: 100 }}>{t('chatLinks.sort')}</TableCell>
              <TableCell align="right" sx={{ width: 110 }}>{t('chatLinks.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>
                  <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>{t('chatLinks.empty')}</Typography>
                </TableCell>
              </TableRow>
            )}
            {rows.map((r) => (
              <TableRow key={r.id} data-testid="chat-link-row">
                <TableCell>{r.edit ? cellInput(r, 'name') : r.link.name}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all', fontFamily: r.edit ? undefined : 'monospace', fontSize: 12.5 }}>{r.edit ? cellInput(r, 'url') : r.link.url}</TableCell>
                <TableCell align="center">
                  <Checkbox
                    size="small"
                    checked={r.edit ? r.edit.show : r.link.show}
                    disabled={!r.edit}
                    slotProps={{ input: { 'aria-label': t('chatLinks.show') } }}
                    onChange={(e) => update(r.id, (x) => ({ ...x, edit: { ...x.edit!, show: e.target.checked } }))}
                  />
                </TableCell>
                <TableCell>{r.edit ? cellInput(r, 'sort') : (r.link.sort ?? 0)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {r.edit ? (
                    <>
                      <Tooltip title={t('chatLinks.done')}>
                        <IconButton size="small" color="primary" aria-label={t('chatLinks.done')} onClick={() => confirm(r)}>
                          <CheckRounded fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('common.cancel', { ns: 'common' })}>
                        <IconButton size="small" aria-label={t('common.cancel', { ns: 'common' })} onClick={() => cancel(r)}>
                          <CloseRounded fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </>
                  ) : (
                    <>
                      <Tooltip title={t('chatLinks.edit')}>
                        <IconButton size="small" aria-label={t('chatLinks.edit')} onClick={() => startEdit(r)}>
                          <EditOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('chatLinks.delete')}>
                        <IconButton size="small" color="error" aria-label={t('chatLinks.delete')} onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}>
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
        <Button startIcon={<AddRounded />} variant="outlined" onClick={add}>
          {t('chatLinks.add')}
        </Button>
        <Tooltip title={editing ? t('chatLinks.finishFirst') : ''}>
          <span>
            <Button variant="contained" disabled={editing} onClick={() => void save([['ChatLinks', JSON.stringify(rows.map((r) => r.link))]])}>
              {t('chatLinks.save')}
            </Button>
          </span>
        </Tooltip>
      </Box>
    </Box>
  );
}
