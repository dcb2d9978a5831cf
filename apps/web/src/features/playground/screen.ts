import { lazy } from 'react';
import Icon from '@mui/icons-material/ChatOutlined';
import { defineScreens } from '../../lib/screen';

const page = lazy(() => import('./PlaygroundPage'));

export default defineScreens(
  { id: 'playground', path: '/playground', layout: 'public', access: 'public', page },
  { id: 'playground', path: '/panel/playground', layout: 'panel', access: 'user', menu: { group: 'dashboard', order: 30, icon: Icon }, page },
);
