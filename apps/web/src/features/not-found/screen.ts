import { lazy } from 'react';
import { defineScreens } from '../../lib/screen';

const page = lazy(() => import('./NotFoundPage'));

/** `notFound` is also used by the app as the catch-all of each layout. */
export default defineScreens(
  { id: 'notFound', path: '/404', layout: 'public', access: 'public', page },
  { id: 'notFound', path: '/panel/404', layout: 'panel', access: 'user', page },
);
