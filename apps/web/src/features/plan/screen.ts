import { lazy } from 'react';
import Icon from '@mui/icons-material/CardMembershipOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'plan',
  path: '/panel/plan',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', parent: 'paySetting', order: 15, icon: Icon },
  page: lazy(() => import('./PlanPage')),
});
