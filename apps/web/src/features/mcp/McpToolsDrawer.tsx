import { Alert, Box, Button, CircularProgress, Divider, Drawer, IconButton, List, ListItem, ListItemText, Stack, Tooltip, Typography } from '@mui/material';
import Close from '@mui/icons-material/Close';
import Refresh from '@mui/icons-material/Refresh';
import { useTranslation } from 'react-i18next';
import type { McpServer, McpTool } from '@one-hub/contract';
import { TimeText } from '../../components/data';

export interface McpToolsDrawerProps {
  /** The server whose tools are shown; null closes the drawer. */
  server: McpServer | null;
  tools: McpTool[];
  refreshing: boolean;
  /** The refresh's failure in the reader's language ('' when none). */
  error: string;
  onRefresh: () => void;
  onClose: () => void;
}

/** A server's tool catalogue (name and description), with a refresh that asks the server again. */
export default function McpToolsDrawer({ server, tools, refreshing, error, onRefresh, onClose }: McpToolsDrawerProps) {
  const { t } = useTranslation('mcp');
  return (
    <Drawer anchor="right" open={server !== null} onClose={onClose} sx={{ zIndex: (th) => th.zIndex.modal }} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 480 } } } }}>
      <Stack sx={{ height: '100%' }} data-testid="mcp-tools">
        <Box sx={{ p: 2 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="h6" noWrap sx={{ flex: 1, minWidth: 0 }}>
              {t('toolsTitle', { name: server?.name ?? '' })}
            </Typography>
            <Tooltip title={t('refreshTools')}>
              <span>
                <Button size="small" startIcon={refreshing ? <CircularProgress size={16} /> : <Refresh />} disabled={refreshing} onClick={onRefresh} data-testid="mcp-tools-refresh">
                  {t('refresh')}
                </Button>
              </span>
            </Tooltip>
            <IconButton aria-label={t('close')} onClick={onClose}>
              <Close />
            </IconButton>
          </Stack>
          <Typography variant="caption" color="text.secondary" component="div">
            {t('lastRefresh')}: <TimeText value={server?.last_refresh_time} fallback={t('never')} variant="caption" />
            {server?.protocol_version ? ` · ${t('protocol', { version: server.protocol_version })}` : ''}
          </Typography>
        </Box>
        <Divider />
        <Box sx={{ flex: 1, overflowY: 'auto' }}>
          {error && (
            <Alert severity="error" sx={{ m: 2 }} data-testid="mcp-tools-error">
              {error}
            </Alert>
          )}
          {refreshing && tools.length === 0 ? (
            <Stack sx={{ py: 6, alignItems: 'center' }} spacing={1}>
              <CircularProgress />
              <Typography variant="body2" color="text.secondary">
                {t('refreshing')}
              </Typography>
            </Stack>
          ) : tools.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
              {t('noTools')}
            </Typography>
          ) : (
            <List dense disablePadding>
              {tools.map((tool) => (
                <ListItem key={tool.name} divider alignItems="flex-start">
                  <ListItemText
                    primary={
                      <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600, wordBreak: 'break-all' }}>
                        {tool.name}
                      </Typography>
                    }
                    secondary={tool.description || t('noDescription')}
                    slotProps={{ secondary: { sx: { whiteSpace: 'pre-line', wordBreak: 'break-word' } } }}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </Box>
        {tools.length > 0 && (
          <>
            <Divider />
            <Typography variant="caption" color="text.secondary" sx={{ px: 2, py: 1 }}>
              {t('toolCount', { count: tools.length })} · {t('prefixHint', { name: server?.name ?? '' })}
            </Typography>
          </>
        )}
      </Stack>
    </Drawer>
  );
}
