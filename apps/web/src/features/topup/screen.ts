import { lazy } from 'react';
import Icon from '@mui/icons-material/AccountBalanceWalletOutlined';
import PlanIcon from '@mui/icons-material/CardMembershipOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens(
  {
    id: 'topup',
    path: '/panel/topup',
    layout: 'panel',
    access: 'user',
    menu: { group: 'billing', order: 10, icon: Icon },
    page: lazy(() => import('./TopupPage')),
  },
  {
    id: 'subscription',
    path: '/panel/subscription',
    layout: 'panel',
    access: 'user',
    menu: { group: 'billing', order: 15, icon: PlanIcon },
    page: lazy(() => import('./SubscriptionPage')),
  },
);
