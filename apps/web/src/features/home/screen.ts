import { lazy } from 'react';
import { defineScreens } from '../../lib/screen';

export default defineScreens(
  { id: 'home', path: '/', layout: 'public', access: 'public', page: lazy(() => import('./HomePage')) },
  { id: 'about', path: '/about', layout: 'public', access: 'public', page: lazy(() => import('./AboutPage')) },
);
