import { lazy } from 'react';
import Icon from '@mui/icons-material/WorkspacesOutlined';
import { defineScreens } from '../../lib/screen';

// Placeholder until the user_group screen lands: replace `page` with this feature's own page.
export default defineScreens({
  id: 'user_group',
  path: '/panel/user_group',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', parent: 'operation', order: 10, icon: Icon },
  page: lazy(() => import('../../components/ComingSoon')),
});
