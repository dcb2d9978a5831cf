import { lazy } from 'react';
import Icon from '@mui/icons-material/PendingActionsOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'task',
  path: '/panel/task',
  layout: 'panel',
  access: 'user',
  menu: { group: 'usage', order: 30, icon: Icon },
  page: lazy(() => import('./TaskPage')),
});
