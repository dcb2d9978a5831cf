import { useEffect, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import Close from '@mui/icons-material/Close';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MCP_TRANSPORTS, quotaToCurrency, type McpServer } from '@one-hub/contract';
import { api } from '../../lib/api';
import { fieldErrorText } from '../../lib/api-errors';
import { serverFieldErrors } from '../../lib/form-errors';
import { showError, showSuccess } from '../../lib/toast';
import { useAppSelector } from '../../store';
import PasswordField from '../../components/PasswordField';
import { formToBody, serverToForm, validateMcpForm, type McpFormErrors, type McpFormState } from './mcp-form';

export interface McpServerDialogProps {
  open: boolean;
  /** The server to edit (the list row); absent to register a new one. */
  server?: McpServer;
  onClose: () => void;
  onSaved: () => void;
}

/** Server body paths → this form's fields, for the fields a save refuses. */
const SERVER_FIELDS: Record<string, string> = { timeout_ms: 'timeout', 'auth.token': 'bearerToken', 'auth.token_url': 'tokenUrl', 'auth.client_id': 'clientId', 'auth.client_secret': 'clientSecret', 'auth.scope': 'scope' };
const FORM_FIELDS = ['name', 'transport', 'url', 'groups', 'price', 'timeout', 'bearerToken', 'tokenUrl', 'clientId', 'clientSecret', 'scope'];

/** Register or edit an upstream MCP server; credentials are write-only (an edit shows header names only). */
export default function McpServerDialog({ open, server, onClose, onSaved }: McpServerDialogProps) {
  const { t } = useTranslation('mcp');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const { quota_per_unit: perUnit, display_in_currency: currency } = useAppSelector((s) => s.siteInfo);
  const editing = server !== undefined;
  const groupOptions = useQuery({ queryKey: ['group-symbols'], queryFn: () => api<string[]>('/api/group/'), enabled: open, staleTime: 60_000 });
  const [form, setForm] = useState<McpFormState>(() => serverToForm(server));
  const [errors, setErrors] = useState<McpFormErrors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setForm(serverToForm(server));
  }, [open, server]);

  const set = <K extends keyof McpFormState>(k: K, v: McpFormState[K]) => setForm((f) => ({ ...f, [k]: v }));
  const text = (k: keyof McpFormErrors) => {
    const e = errors[k];
    return e === undefined ? undefined : e.startsWith('errors.') ? t(e) : e;
  };
  const err = (k: keyof McpFormErrors) => (errors[k] ? { error: true, helperText: text(k) } : {});
  const setHeader = (i: number, patch: Partial<McpFormState['headers'][number]>) => set('headers', form.headers.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  const keepHint = editing ? t('keepHint') : undefined;

  const save = async () => {
    const found = validateMcpForm(form, fieldErrorText, server);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await api('/api/mcp_server/', { method: editing ? 'PUT' : 'POST', json: formToBody(form, server) });
      showSuccess(editing ? t('updated') : t('created'));
      onSaved();
      onClose();
    } catch (e) {
      const atFields = serverFieldErrors(e, FORM_FIELDS, SERVER_FIELDS);
      setErrors(atFields);
      if (!Object.keys(atFields).length) showError(e);
    } finally {
      setSaving(false);
    }
  };

  const price = Number(form.price);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth fullScreen={phone} data-testid="mcp-dialog">
      <DialogTitle>{editing ? t('editTitle', { name: server.name }) : t('createTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5} component="form" noValidate onSubmit={(e) => (e.preventDefault(), void save())}>
          <TextField name="name" label={t('field.name')} value={form.name} onChange={(e) => set('name', e.target.value)} required autoFocus {...err('name')} helperText={text('name') ?? t('field.nameHelp')} />
          <TextField select name="transport" label={t('field.transport')} value={form.transport} onChange={(e) => set('transport', e.target.value as McpFormState['transport'])} {...err('transport')} helperText={text('transport') ?? t(`transportHelp.${form.transport}`)} data-testid="mcp-transport">
            {MCP_TRANSPORTS.map((tr) => (
              <MenuItem key={tr} value={tr}>
                {t(`transport.${tr}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            name="url"
            label={form.transport === 'stdio' ? t('field.command') : t('field.url')}
            value={form.url}
            onChange={(e) => set('url', e.target.value)}
            required
            placeholder={form.transport === 'stdio' ? 'npx -y @modelcontextprotocol/server-everything' : 'https://mcp.example.com/mcp'}
            {...err('url')}
          />

          <Divider />
          <Box>
            <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
              <Typography variant="subtitle2" sx={{ flex: 1 }}>
                {t('field.headers')}
              </Typography>
              <Button size="small" startIcon={<Add />} onClick={() => set('headers', [...form.headers, { name: '', value: '', stored: false }])} data-testid="mcp-header-add">
                {t('addHeader')}
              </Button>
            </Stack>
            <Stack spacing={1} data-testid="mcp-headers">
              {form.headers.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  {t('noHeaders')}
                </Typography>
              )}
              {form.headers.map((h, i) => (
                <Stack key={i} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'stretch', sm: 'flex-start' } }}>
                  <TextField
                    size="small"
                    label={t('headerName')}
                    value={h.name}
                    onChange={(e) => setHeader(i, { name: e.target.value })}
                    error={Boolean(errors[`header.${i}`])}
                    helperText={text(`header.${i}`)}
                    sx={{ flex: 1 }}
                    slotProps={{ htmlInput: { 'data-testid': `mcp-header-name-${i}` } }}
                  />
                  <Stack direction="row" spacing={1} sx={{ flex: 1, alignItems: 'flex-start' }}>
                    <PasswordField
                      size="small"
                      label={t('headerValue')}
                      value={h.value}
                      onChange={(e) => setHeader(i, { value: e.target.value })}
                      placeholder={h.stored ? t('keepPlaceholder') : undefined}
                      sx={{ flex: 1 }}
                      slotProps={{ htmlInput: { 'data-testid': `mcp-header-value-${i}`, autoComplete: 'off' }, inputLabel: h.stored ? { shrink: true } : undefined }}
                    />
                    <IconButton size="small" aria-label={t('removeHeader', { name: h.name || i + 1 })} onClick={() => set('headers', form.headers.filter((_r, j) => j !== i))} sx={{ mt: 0.5 }}>
                      <Close fontSize="small" />
                    </IconButton>
                  </Stack>
                </Stack>
              ))}
              <Typography variant="caption" color="text.secondary">
                {editing ? t('headersEditHelp') : t('headersHelp')}
              </Typography>
            </Stack>
          </Box>

          <TextField select name="auth_type" label={t('field.auth')} value={form.authType} onChange={(e) => set('authType', e.target.value as McpFormState['authType'])} data-testid="mcp-auth-type" helperText={text('auth') ?? (editing && server.auth_type !== 'none' ? t('authStored', { type: t(`auth.${server.auth_type}`) }) : undefined)} error={Boolean(errors.auth)}>
            <MenuItem value="none">{t('auth.none')}</MenuItem>
            <MenuItem value="bearer">{t('auth.bearer')}</MenuItem>
            <MenuItem value="oauth-client-credentials">{t('auth.oauth-client-credentials')}</MenuItem>
          </TextField>
          {form.authType === 'bearer' && (
            <PasswordField name="bearer_token" label={t('field.bearerToken')} value={form.bearerToken} onChange={(e) => set('bearerToken', e.target.value)} placeholder={keepHint} {...err('bearerToken')} slotProps={{ htmlInput: { autoComplete: 'off' }, inputLabel: editing ? { shrink: true } : undefined }} />
          )}
          {form.authType === 'oauth-client-credentials' && (
            <>
              <TextField name="token_url" label={t('field.tokenUrl')} value={form.tokenUrl} onChange={(e) => set('tokenUrl', e.target.value)} placeholder={keepHint ?? 'https://auth.example.com/oauth/token'} {...err('tokenUrl')} slotProps={{ inputLabel: { shrink: true } }} />
              <TextField name="client_id" label={t('field.clientId')} value={form.clientId} onChange={(e) => set('clientId', e.target.value)} placeholder={keepHint} {...err('clientId')} slotProps={{ inputLabel: editing ? { shrink: true } : undefined }} />
              <PasswordField name="client_secret" label={t('field.clientSecret')} value={form.clientSecret} onChange={(e) => set('clientSecret', e.target.value)} placeholder={keepHint} {...err('clientSecret')} slotProps={{ htmlInput: { autoComplete: 'off' }, inputLabel: editing ? { shrink: true } : undefined }} />
              <TextField name="scope" label={t('field.scope')} value={form.scope} onChange={(e) => set('scope', e.target.value)} {...err('scope')} helperText={text('scope') ?? (editing ? t('oauthEditHelp') : t('field.scopeHelp'))} />
            </>
          )}

          <Divider />
          <Autocomplete
            multiple
            freeSolo
            options={groupOptions.data ?? []}
            value={form.groups}
            onChange={(_e, v) => set('groups', [...new Set(v.map((g) => g.trim()).filter(Boolean))])}
            renderValue={(v, getItemProps) =>
              v.map((g, index) => {
                const { key, ...p } = getItemProps({ index });
                return <Chip key={key} size="small" label={g} {...p} />;
              })
            }
            renderInput={(params) => <TextField {...params} label={t('field.groups')} {...err('groups')} helperText={text('groups') ?? t('field.groupsHelp')} />}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              name="price"
              type="number"
              label={t('field.price')}
              value={form.price}
              onChange={(e) => set('price', e.target.value)}
              {...err('price')}
              helperText={text('price') ?? t('field.priceHelp')}
              sx={{ flex: 1 }}
              slotProps={{
                htmlInput: { min: 0, step: 1 },
                input: currency && Number.isFinite(price) && price > 0 ? { endAdornment: <InputAdornment position="end">{t('equivalent', { amount: quotaToCurrency(price, perUnit, 4) })}</InputAdornment> } : undefined,
              }}
            />
            <TextField
              name="timeout"
              type="number"
              label={t('field.timeout')}
              value={form.timeout}
              onChange={(e) => set('timeout', e.target.value)}
              {...err('timeout')}
              sx={{ flex: 1 }}
              slotProps={{ htmlInput: { min: 1, max: 600 } }}
            />
          </Stack>
          <FormControlLabel control={<Switch checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} />} label={t('field.enabled')} />
          {form.transport === 'stdio' && <Alert severity="info">{t('stdioNote')}</Alert>}
          <button type="submit" hidden />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('common:common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving} data-testid="mcp-submit">
          {t('common:common.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
