import { lazy } from 'react';
import Icon from '@mui/icons-material/ViewInArOutlined';
import { defineScreens } from '../../lib/screen';

// Placeholder until the model_price screen lands: replace `page` with this feature's own page.
export default defineScreens({
  id: 'model_price',
  path: '/panel/model_price',
  layout: 'panel',
  access: 'user',
  menu: { group: 'billing', order: 20, icon: Icon },
  page: lazy(() => import('../../components/ComingSoon')),
});
