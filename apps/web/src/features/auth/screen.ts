import { lazy } from 'react';
import { defineScreens } from '../../lib/screen';

const callback = lazy(() => import('./OAuthCallbackPage'));

export default defineScreens(
  { id: 'login', path: '/login', layout: 'public', access: 'guest', page: lazy(() => import('./LoginPage')) },
  { id: 'register', path: '/register', layout: 'public', access: 'guest', page: lazy(() => import('./RegisterPage')) },
  { id: 'reset', path: '/reset', layout: 'public', access: 'guest', page: lazy(() => import('./ForgotPasswordPage')) },
  // The first run's one-time link (issue 39 point 3): the page itself refuses without a valid token.
  { id: 'setup', path: '/setup', layout: 'public', access: 'public', page: lazy(() => import('./SetupPage')) },
  { id: 'userReset', path: '/user/reset', layout: 'public', access: 'public', page: lazy(() => import('./ResetFromLinkPage')) },
  { id: 'oauthGithub', path: '/oauth/github', layout: 'public', access: 'public', page: callback },
  { id: 'oauthOidc', path: '/oauth/oidc', layout: 'public', access: 'public', page: callback },
  { id: 'oauthLark', path: '/oauth/lark', layout: 'public', access: 'public', page: callback },
  { id: 'oauthLinuxdo', path: '/oauth/linuxdo', layout: 'public', access: 'public', page: callback },
);
