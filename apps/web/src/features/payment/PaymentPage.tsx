import { Box, Card, Tab, Tabs } from '@mui/material';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/data';
import GatewayTab from './GatewayTab';
import OrderTab from './OrderTab';

type TabId = 'order' | 'gateway';

/** Payment: orders (`#order`, default) and gateway settings (`#gateway`) (console-screens §3.15). */
export default function PaymentPage() {
  const { t } = useTranslation('payment');
  const { hash } = useLocation();
  const navigate = useNavigate();
  const tab: TabId = hash === '#gateway' ? 'gateway' : 'order';
  return (
    <Box data-testid="payment-page">
      <PageHeader subtitle={t('subtitle')} />
      <Card>
        <Tabs value={tab} onChange={(_e, v: TabId) => void navigate({ hash: v }, { replace: true })} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
          <Tab value="order" label={t('ordersTab')} data-testid="payment-tab-order" />
          <Tab value="gateway" label={t('gatewaysTab')} data-testid="payment-tab-gateway" />
        </Tabs>
        {tab === 'order' ? <OrderTab /> : <GatewayTab />}
      </Card>
    </Box>
  );
}
