import { lazy } from 'react';
import Icon from '@mui/icons-material/PeopleAltOutlined';
import { defineScreens } from '../../lib/screen';

// Placeholder until the user screen lands: replace `page` with this feature's own page.
export default defineScreens({
  id: 'user',
  path: '/panel/user',
  layout: 'panel',
  access: 'admin',
  menu: { group: 'setting', order: 10, icon: Icon },
  page: lazy(() => import('../../components/ComingSoon')),
});
