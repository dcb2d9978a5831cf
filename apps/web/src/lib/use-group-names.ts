import { useQuery } from '@tanstack/react-query';
import type { Page, UserGroup } from '@one-hub/contract';
import { api } from './api';
import { useServerText } from './server-text';

/** Every user group's display name by symbol (admins' lists show names, not symbols). */
export function useGroupNames(): Map<string, string> {
  const { groupName } = useServerText();
  const q = useQuery({
    queryKey: ['user-group-names'],
    queryFn: () => api<Page<UserGroup>>('/api/user_group/', { query: { page: 1, size: 100 } }),
    staleTime: 60_000,
  });
  return new Map((q.data?.data ?? []).map((g) => [g.symbol, groupName(g.symbol, g.name)]));
}
