import { lazy } from 'react';
import { defineScreens } from '../../lib/screen';

export default defineScreens({ id: 'jump', path: '/jump', layout: 'public', access: 'public', page: lazy(() => import('./JumpPage')) });
