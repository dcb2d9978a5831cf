import { lazy } from 'react';
import Icon from '@mui/icons-material/ReceiptLongOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'log',
  path: '/panel/log',
  layout: 'panel',
  access: 'user',
  menu: { group: 'usage', order: 10, icon: Icon },
  page: lazy(() => import('./LogPage')),
});
