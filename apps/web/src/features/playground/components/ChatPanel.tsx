import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Box, Button, Card, Divider, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import Send from '@mui/icons-material/Send';
import StopCircle from '@mui/icons-material/StopCircleOutlined';
import DeleteSweep from '@mui/icons-material/DeleteSweepOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TOKEN_STATUS, type AvailableModel, type Token } from '@one-hub/contract';
import { api } from '../../../lib/api';
import { useChat } from '../use-chat';
import { chatModels, tokenModels } from '../chat-models';
import MessageList from './MessageList';

const PLAYGROUND_TOKEN = 'sys_playground';

/** The built-in chat: pick a token and a model, stream answers, stop them mid-way. */
export default function ChatPanel() {
  const { t } = useTranslation('playground');
  const playgroundKey = useQuery({ queryKey: ['playground-key'], queryFn: () => api<string>('/api/token/playground'), retry: false });
  const tokens = useQuery({
    queryKey: ['playground-tokens', playgroundKey.data],
    queryFn: () => api<{ data: Token[] }>('/api/token/', { query: { page: 1, size: 100 } }),
    enabled: playgroundKey.isSuccess,
  });
  const [tokenKey, setTokenKey] = useState('');
  const [model, setModel] = useState('');
  // The models offered are the chat models the selected token may call; prices tell which are chat.
  const allowed = useQuery({ queryKey: ['token-models', tokenKey], queryFn: () => tokenModels(tokenKey), enabled: Boolean(tokenKey), retry: false });
  const prices = useQuery({ queryKey: ['available-models'], queryFn: () => api<Record<string, AvailableModel>>('/api/available_model') });
  const usable = (tokens.data?.data ?? []).filter((tk) => tk.status === TOKEN_STATUS.enabled);
  const modelNames = useMemo(() => (allowed.data && prices.data ? chatModels(allowed.data, prices.data) : []), [allowed.data, prices.data]);
  const modelsLoading = !tokenKey || allowed.isLoading || prices.isLoading;
  const [input, setInput] = useState('');
  const chat = useChat();
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!tokenKey && playgroundKey.data) setTokenKey(playgroundKey.data);
  }, [tokenKey, playgroundKey.data]);
  useEffect(() => {
    // a token of another group may not offer the model chosen before
    if (modelNames.length && !modelNames.includes(model)) setModel(modelNames.find((m) => /gpt-4o-mini|gpt-4o|gpt/.test(m)) ?? modelNames[0]);
  }, [model, modelNames]);
  useEffect(() => {
    // braces matter: newer browsers answer scrollIntoView with a promise, which React would call as a cleanup
    void bottom.current?.scrollIntoView({ block: 'end' });
  }, [chat.messages]);

  const canSend = Boolean(input.trim() && tokenKey && modelNames.includes(model) && !chat.busy);
  const send = () => {
    if (!canSend) return;
    void chat.send(input.trim(), { key: tokenKey, model });
    setInput('');
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  const failed = playgroundKey.error ?? tokens.error ?? allowed.error ?? prices.error;

  return (
    <Card data-testid="playground-chat" sx={{ display: 'flex', flexDirection: 'column', height: { xs: 'calc(100dvh - 190px)', sm: 'calc(100dvh - 236px)' }, minHeight: 420 }}>
      <Stack direction="row" useFlexGap spacing={1} sx={{ p: { xs: 1.5, sm: 2 }, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField select size="small" label={t('token')} value={usable.some((tk) => tk.key === tokenKey) ? tokenKey : ''} onChange={(e) => setTokenKey(e.target.value)} sx={{ flex: { xs: '1 1 110px', sm: '0 0 220px' }, minWidth: 0 }} slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'token-select' } }}>
          {usable.map((tk) => (
            <MenuItem key={tk.id} value={tk.key}>
              {tk.name === PLAYGROUND_TOKEN ? t('playgroundToken') : tk.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label={t('model')} value={modelNames.includes(model) ? model : ''} onChange={(e) => setModel(e.target.value)} sx={{ flex: { xs: '1 1 110px', sm: '0 0 240px' }, minWidth: 0 }} slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'model-select' } }}>
          {modelNames.map((m) => (
            <MenuItem key={m} value={m}>
              {m}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flex: { xs: 0, sm: 1 } }} />
        <Tooltip title={t('clear')}>
          <span>
            <IconButton aria-label={t('clear')} onClick={chat.clear} disabled={chat.messages.length === 0}>
              <DeleteSweep />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
      <Divider />
      <Box sx={{ flex: 1, overflowY: 'auto', px: { xs: 1.5, md: 3 }, py: 2 }}>
        {failed ? (
          <Alert severity="error">{failed instanceof Error ? failed.message : String(failed)}</Alert>
        ) : !modelsLoading && modelNames.length === 0 ? (
          <Alert severity="info">{t('noModels')}</Alert>
        ) : chat.messages.length === 0 ? (
          <Box sx={{ height: '100%', display: 'grid', placeItems: 'center', textAlign: 'center', color: 'text.secondary' }}>
            <Typography>{t('emptyChat')}</Typography>
          </Box>
        ) : (
          <MessageList messages={chat.messages} busy={chat.busy} />
        )}
        <div ref={bottom} />
      </Box>
      <Divider />
      <Stack direction="row" spacing={1} sx={{ p: 1.5, alignItems: 'flex-end' }}>
        <TextField
          fullWidth
          multiline
          maxRows={6}
          size="small"
          placeholder={t('placeholder')}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKey}
          slotProps={{ htmlInput: { 'aria-label': t('placeholder'), 'data-testid': 'chat-input' } }}
        />
        {chat.busy ? (
          <Button variant="outlined" color="error" startIcon={<StopCircle />} onClick={chat.stop} data-testid="chat-stop" sx={{ flexShrink: 0 }}>
            {t('stop')}
          </Button>
        ) : (
          <Button variant="contained" endIcon={<Send />} onClick={send} disabled={!canSend} data-testid="chat-send" sx={{ flexShrink: 0 }}>
            {t('send')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}
