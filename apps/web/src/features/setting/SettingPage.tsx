import { useLocation, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, Card, CircularProgress, Tab, Tabs } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/error-handler';
import { OperationTab } from './OperationTab';
import { SystemTab } from './SystemTab';
import { OtherTab } from './OtherTab';
import { useOptions } from './use-options';

const TABS = ['operation', 'system', 'other'] as const;

/** Settings (console-screens §3.6): three tabs, the URL hash selects and tracks the tab. */
export default function SettingPage() {
  const { t } = useTranslation('setting');
  const { hash } = useLocation();
  const navigate = useNavigate();
  const options = useOptions();
  const current = TABS.find((x) => `#${x}` === hash) ?? 'operation';

  return (
    <Card sx={{ overflow: 'visible' }}>
      <Tabs
        value={current}
        onChange={(_e, v: string) => void navigate({ hash: v }, { replace: true })}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ px: { xs: 1, sm: 2 }, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((x) => (
          <Tab key={x} value={x} label={t(`tab.${x}`)} data-testid={`tab-${x}`} />
        ))}
      </Tabs>
      <Box sx={{ p: { xs: 1.5, sm: 3 }, bgcolor: 'background.default' }}>
        {options.isPending && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }} data-testid="setting-loading">
            <CircularProgress />
          </Box>
        )}
        {options.isError && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void options.refetch()}>
                {t('retry')}
              </Button>
            }
          >
            {describeError(options.error, t).text}
          </Alert>
        )}
        {options.data && current === 'operation' && <OperationTab options={options.data} />}
        {options.data && current === 'system' && <SystemTab options={options.data} />}
        {options.data && current === 'other' && <OtherTab options={options.data} />}
      </Box>
    </Card>
  );
}
