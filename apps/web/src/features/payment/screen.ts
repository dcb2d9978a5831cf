import { lazy } from 'react';
import Icon from '@mui/icons-material/PaymentsOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'payment',
  path: '/panel/payment',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', parent: 'paySetting', order: 20, icon: Icon },
  page: lazy(() => import('./PaymentPage')),
});
