import { useQuery } from '@tanstack/react-query';
import type { AvailableModel, ModelInfo, ModelOwner, UserGroup } from '@one-hub/contract';
import { api } from '../../lib/api';

/** Everything the available-models page reads; all of it is public. */
export function useCatalogData() {
  const models = useQuery({ queryKey: ['available_model'], queryFn: () => api<Record<string, AvailableModel>>('/api/available_model'), staleTime: 60_000 });
  const infos = useQuery({ queryKey: ['model_info'], queryFn: () => api<ModelInfo[]>('/api/model_info/'), staleTime: 60_000 });
  const groups = useQuery({ queryKey: ['user_group_map'], queryFn: () => api<Record<string, UserGroup>>('/api/user_group_map'), staleTime: 60_000 });
  const owners = useQuery({ queryKey: ['model_ownedby'], queryFn: () => api<ModelOwner[]>('/api/model_ownedby/'), staleTime: 60_000 });
  return { models, infos, groups, owners };
}
