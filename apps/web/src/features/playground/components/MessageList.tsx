import { Alert, Avatar, Box, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import SmartToy from '@mui/icons-material/SmartToyOutlined';
import Person from '@mui/icons-material/PersonOutlined';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../use-chat';
import MessageBody from './MessageBody';

/** The conversation: user turns on the right, answers on the left with their errors and stop marks. */
export default function MessageList({ messages, busy }: { messages: ChatMessage[]; busy: boolean }) {
  const { t } = useTranslation('playground');
  return (
    <Stack spacing={2}>
      {messages.map((m, i) => {
        const mine = m.role === 'user';
        const last = i === messages.length - 1;
        // a failed turn with nothing written is its error alone, not an alert inside a grey bubble
        const bare = !mine && !m.content && !m.reasoning && Boolean(m.error);
        return (
          <Stack key={i} direction={mine ? 'row-reverse' : 'row'} spacing={1.25} sx={{ alignItems: 'flex-start' }} data-testid={mine ? 'chat-user' : 'chat-answer'}>
            <Avatar sx={{ width: 32, height: 32, bgcolor: mine ? 'primary.main' : 'secondary.main' }}>{mine ? <Person fontSize="small" /> : <SmartToy fontSize="small" />}</Avatar>
            <Box
              sx={{
                maxWidth: { xs: '85%', md: '75%' },
                minWidth: 0,
                px: bare ? 0 : 1.75,
                py: bare ? 0 : 1.25,
                borderRadius: 2,
                bgcolor: mine ? 'primary.main' : bare ? 'transparent' : 'action.hover',
                color: mine ? 'primary.contrastText' : 'text.primary',
              }}
            >
              {m.reasoning && (
                <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap', borderLeft: 2, borderColor: 'divider', pl: 1, mb: 1 }}>
                  {m.reasoning}
                </Typography>
              )}
              {mine ? <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{m.content}</Typography> : m.content && <MessageBody text={m.content} />}
              {!mine && !m.content && !m.error && busy && last && <CircularProgress size={16} aria-label={t('thinking')} />}
              {m.error && (
                <Alert severity="error" sx={{ mt: m.content ? 1 : 0 }} data-testid="chat-error">
                  {m.error}
                </Alert>
              )}
              {m.stopped && <Chip size="small" label={t('stopped')} sx={{ mt: 1 }} />}
            </Box>
          </Stack>
        );
      })}
    </Stack>
  );
}
