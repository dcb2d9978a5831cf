import { useTranslation } from 'react-i18next';
import type { RequestLimits, User } from '@one-hub/contract';
import { api } from '../../lib/api';
import LimitsDialog from '../../components/LimitsDialog';
import RequestLimitFields, { badLimits, limitsToTexts, textsToLimits } from '../../components/RequestLimitFields';

/** An admin sets a user's request limits: they apply to every token of the user together. */
export default function UserLimitsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <LimitsDialog
      open={user !== null}
      title={t('common:limits.userTitle', { name: user?.username ?? '' })}
      testId="user-limits"
      queryKey={['user-limits', user?.id]}
      load={() => api<RequestLimits>(`/api/limits/user/${user!.id}`)}
      save={(texts) => api(`/api/limits/user/${user!.id}`, { method: 'PUT', json: textsToLimits(texts) })}
      toState={limitsToTexts}
      invalid={(texts) => badLimits(texts).length > 0}
      onClose={onClose}
    >
      {(texts, setTexts) => <RequestLimitFields value={texts} onChange={setTexts} help={t('common:limits.userHelp')} />}
    </LimitsDialog>
  );
}
