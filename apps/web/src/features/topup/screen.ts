import { lazy } from 'react';
import Icon from '@mui/icons-material/AccountBalanceWalletOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'topup',
  path: '/panel/topup',
  layout: 'panel',
  access: 'user',
  menu: { group: 'billing', order: 10, icon: Icon },
  page: lazy(() => import('./TopupPage')),
});
