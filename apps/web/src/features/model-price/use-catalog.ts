import { useQuery } from '@tanstack/react-query';
import type { AvailableModel, ModelInfo, ModelOwner, UserGroup } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useGroupMapNames, useServerText } from '../../lib/server-text';

/** Everything the available-models page reads; all of it is public. */
export function useCatalogData() {
  const { ownerName } = useServerText();
  const models = useQuery({
    queryKey: ['available_model'],
    queryFn: () => api<Record<string, AvailableModel>>('/api/available_model'),
    staleTime: 60_000,
    select: (all) => Object.fromEntries(Object.entries(all).map(([name, m]) => [name, { ...m, owned_by: ownerName(m.owned_by) }])),
  });
  const infos = useQuery({ queryKey: ['model_info'], queryFn: () => api<ModelInfo[]>('/api/model_info/'), staleTime: 60_000 });
  const names = useGroupMapNames();
  const groups = useQuery({ queryKey: ['user_group_map'], queryFn: () => api<Record<string, UserGroup>>('/api/user_group_map'), staleTime: 60_000, select: names });
  const owners = useQuery({ queryKey: ['model_ownedby'], queryFn: () => api<ModelOwner[]>('/api/model_ownedby/'), staleTime: 60_000 });
  return { models, infos, groups, owners };
}
