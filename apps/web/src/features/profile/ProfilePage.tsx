import { useState } from 'react';
import { Alert, Box, Button, Skeleton, Tab, Tabs } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useAppDispatch } from '../../store';
import { storeUser } from '../../store/session';
import AccessTokenTab from './components/AccessTokenTab';
import BindingsTab from './components/BindingsTab';
import GeneralTab from './components/GeneralTab';
import SecurityTab from './components/SecurityTab';
import QuotaAlertTab from './components/QuotaAlertTab';

/** The user's own account: personal info, sign-in bindings and the access token (console-screens §3.10). */
export default function ProfilePage() {
  const { t } = useTranslation('profile');
  const dispatch = useAppDispatch();
  const [tab, setTab] = useState(0);
  const self = useQuery({
    queryKey: ['user-self'],
    queryFn: async () => {
      const user = await api<User>('/api/user/self');
      dispatch(storeUser(user));
      return user;
    },
  });
  const reload = () => void self.refetch();

  if (self.isLoading) return <Skeleton variant="rounded" height={320} />;
  if (!self.data) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={reload}>
            {t('retry')}
          </Button>
        }
      >
        {t('loadFailed')}
      </Alert>
    );
  }
  return (
    <Box>
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} variant="scrollable" scrollButtons="auto" sx={{ mb: 2 }}>
        <Tab label={t('tabGeneral')} data-testid="profile-tab-general" />
        <Tab label={t('tabBinding')} data-testid="profile-tab-binding" />
        <Tab label={t('tabToken')} data-testid="profile-tab-token" />
        <Tab label={t('tabSecurity')} data-testid="profile-tab-security" />
        <Tab label={t('tabAlert')} data-testid="profile-tab-alert" />
      </Tabs>
      {tab === 0 && <GeneralTab key={self.data.display_name} user={self.data} onSaved={reload} />}
      {tab === 1 && <BindingsTab user={self.data} onChanged={reload} />}
      {tab === 2 && <AccessTokenTab />}
      {tab === 3 && <SecurityTab />}
      {tab === 4 && <QuotaAlertTab user={self.data} />}
    </Box>
  );
}
