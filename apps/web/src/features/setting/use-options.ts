import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { reloadSiteInfo } from '../../app/use-startup';
import { useAppDispatch } from '../../store';

/** Stored option texts by key (secrets are never sent by the server, so they read as ''). */
export type OptionMap = Record<string, string>;

export const OPTIONS_QUERY = ['options'] as const;

export function useOptions() {
  return useQuery({
    queryKey: OPTIONS_QUERY,
    queryFn: async () => Object.fromEntries((await api<Array<{ key: string; value: string }>>('/api/option/')).map((o) => [o.key, o.value])) as OptionMap,
  });
}

/**
 * Saves options one key at a time (`PUT /api/option/`), then reloads the options and the site info.
 * Answers whether everything was saved; a refusal toasts the server's message and stops there.
 */
export function useSaveOptions() {
  const { t } = useTranslation('setting');
  const client = useQueryClient();
  const dispatch = useAppDispatch();
  return useCallback(
    async (entries: Array<[string, string]>, successText = t('saved')): Promise<boolean> => {
      let ok = true;
      try {
        for (const [key, value] of entries) await api('/api/option/', { method: 'PUT', json: { key, value } });
        if (entries.length) showSuccess(successText);
      } catch (e) {
        showError(e);
        ok = false;
      }
      await client.invalidateQueries({ queryKey: OPTIONS_QUERY });
      await reloadSiteInfo(dispatch);
      return ok;
    },
    [client, dispatch, t],
  );
}
