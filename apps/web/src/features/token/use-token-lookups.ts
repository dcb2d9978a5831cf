import { useQuery } from '@tanstack/react-query';
import type { AvailableModel, ModelOwner, UserGroup } from '@one-hub/contract';
import { api } from '../../lib/api';
import { useGroupMapNames } from '../../lib/server-text';

/** Groups the user may pick (`/api/user_group_map`: public ones and the user's own). */
export function useGroupMap() {
  const names = useGroupMapNames();
  return useQuery({ queryKey: ['user_group_map'], queryFn: () => api<Record<string, UserGroup>>('/api/user_group_map'), staleTime: 60_000, select: names });
}

/** Models the user's groups reach (`/api/available_model`). */
export function useAvailableModels(enabled = true) {
  return useQuery({ queryKey: ['available_model'], queryFn: () => api<Record<string, AvailableModel>>('/api/available_model'), staleTime: 60_000, enabled });
}

/** Provider icons by owner name (`/api/model_ownedby/`). */
export function useOwnerIcons(enabled = true) {
  const q = useQuery({ queryKey: ['model_ownedby'], queryFn: () => api<ModelOwner[]>('/api/model_ownedby/'), staleTime: 60_000, enabled });
  return new Map((q.data ?? []).map((o) => [o.name, o.icon]));
}

/** A stable colour per group name, so a group looks the same in every row. */
const GROUP_COLORS = ['primary', 'secondary', 'info', 'success', 'warning', 'orange', 'error'] as const;
export function groupColor(name: string): (typeof GROUP_COLORS)[number] {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return GROUP_COLORS[h % GROUP_COLORS.length];
}
