import { lazy } from 'react';
import Icon from '@mui/icons-material/SpaceDashboardOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'dashboard',
  path: '/panel/dashboard',
  layout: 'panel',
  access: 'user',
  menu: { group: 'dashboard', order: 10, icon: Icon },
  page: lazy(() => import('./DashboardPage')),
});
