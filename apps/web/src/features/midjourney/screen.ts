import { lazy } from 'react';
import Icon from '@mui/icons-material/PaletteOutlined';
import { defineScreens } from '../../lib/screen';

export default defineScreens({
  id: 'midjourney',
  path: '/panel/midjourney',
  layout: 'panel',
  access: 'user',
  menu: { group: 'usage', order: 20, icon: Icon },
  page: lazy(() => import('./MidjourneyPage')),
});
