import { lazy } from 'react';
import Icon from '@mui/icons-material/InsightsOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'analytics',
  path: '/panel/analytics',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'dashboard', order: 20, icon: Icon },
  page: lazy(() => import('./AnalyticsPage')),
});
