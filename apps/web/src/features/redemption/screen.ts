import { lazy } from 'react';
import Icon from '@mui/icons-material/RedeemOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'redemption',
  path: '/panel/redemption',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', parent: 'paySetting', order: 10, icon: Icon },
  page: lazy(() => import('./RedemptionPage')),
});
