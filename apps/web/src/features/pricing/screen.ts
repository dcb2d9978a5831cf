import { lazy } from 'react';
import Icon from '@mui/icons-material/PriceChangeOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'pricing',
  path: '/panel/pricing',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', parent: 'operation', order: 20, icon: Icon },
  page: lazy(() => import('./PricingPage')),
});
