import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { User } from '@one-hub/contract';
import { apiWithMessage, ApiError } from '../../lib/api';
import { readString, STORAGE } from '../../lib/storage';
import { showError, showSuccess } from '../../lib/toast';
import { useAppDispatch } from '../../store';
import { AuthCard } from './AuthCard';
import { completeLogin } from './complete-login';
import { TWO_FACTOR } from './TwoFactorDialog';
import { callbackProvider, withAff } from '../../lib/oauth-urls';

export const MAX_RETRIES = 3;
/**
 * A provider code is single-use, so only failures that never reached a verdict (network, 5xx) are
 * retried, up to 3 times with the count shown; a refusal goes straight to the redirect.
 */
export const isRetryable = (e: unknown) => e instanceof ApiError && (e.status === 0 || e.status >= 500);

/** /oauth/{github,oidc,lark,linuxdo}: exchanges code+state; "bind" means an account was bound. */
export default function OAuthCallbackPage() {
  const { t } = useTranslation('auth');
  const provider = callbackProvider(useLocation().pathname) ?? 'github';
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [status, setStatus] = useState(t('processing'));
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const query = withAff({ code: params.get('code') ?? '', state: params.get('state') ?? '' }, readString(STORAGE.aff));
    const attempt = async (n: number): Promise<void> => {
      try {
        const { message, data } = await apiWithMessage<User | null>(`/api/oauth/${provider}`, { query });
        if (message === TWO_FACTOR) return navigate('/login?2fa=1');
        if (message === 'bind') {
          showSuccess(t('common.bindOk', { ns: 'common' }));
        } else if (data) {
          completeLogin(dispatch, data);
          showSuccess(t('common.loginOk', { ns: 'common' }));
        }
        navigate('/panel');
      } catch (e) {
        if (isRetryable(e) && n < MAX_RETRIES) {
          setStatus(t('retrying', { n: n + 1 }));
          await new Promise((r) => setTimeout(r, 2000));
          return attempt(n + 1);
        }
        showError(e);
        setStatus(t('oauthFailed'));
        setTimeout(() => navigate('/login'), 2000);
      }
    };
    void attempt(0);
  }, [dispatch, navigate, params, provider, t]);

  return (
    <AuthCard title={t(`oauthTitle_${provider}`)}>
      <Box sx={{ display: 'grid', placeItems: 'center', gap: 2, py: 3 }}>
        <CircularProgress />
        <Typography color="text.secondary" data-testid="oauth-status">
          {status}
        </Typography>
      </Box>
    </AuthCard>
  );
}
