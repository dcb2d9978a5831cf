import { lazy } from 'react';
import Icon from '@mui/icons-material/KeyOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'token',
  path: '/panel/token',
  layout: 'panel',
  access: 'user',
  menu: { group: 'setting', order: 50, icon: Icon },
  page: lazy(() => import('./TokenPage')),
});
