import { useQuery } from '@tanstack/react-query';
import type { PriceEntry } from '@one-hub/contract';
import { api } from '../../lib/api';

export interface ModelOption {
  id: string;
  owned_by: string;
}

/** The lookups the channel screen loads once (console-screens §3.3). */
export function useChannelLookups() {
  const groups = useQuery({ queryKey: ['group-symbols'], queryFn: () => api<string[]>('/api/group/'), staleTime: 60_000 });
  const tags = useQuery({ queryKey: ['channel-tags'], queryFn: () => api<{ tag: string }[]>('/api/channel_tag/_all'), staleTime: 30_000 });
  // Not the envelope: an OpenAI-style model list.
  const models = useQuery({
    queryKey: ['channel-models'],
    queryFn: async () => {
      const res = await fetch('/api/channel/models', { credentials: 'same-origin' });
      const body = (await res.json()) as { data?: ModelOption[] };
      return body.data ?? [];
    },
    staleTime: 60_000,
  });
  const prices = useQuery({ queryKey: ['prices'], queryFn: () => api<PriceEntry[]>('/api/prices'), staleTime: 60_000 });
  return {
    groups: groups.data ?? [],
    tags: (tags.data ?? []).map((t) => t.tag),
    models: models.data ?? [],
    prices: prices.data ?? [],
  };
}
