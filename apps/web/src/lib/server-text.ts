import { useTranslation } from 'react-i18next';
import { isShownAsQuota, logMessageOf, SEEDED_GROUP_NAMES, UNKNOWN_OWNER, type LogEntry, type UserGroup } from '@one-hub/contract';
import { useFormatQuota } from '../components/data/QuotaText';

/** Translations of text the server generates live in this namespace (features/server-text/locales). */
export const SERVER_TEXT_NS = 'server-text';

/**
 * Text the server wrote, in the reader's language: a log row by the message key in its metadata
 * (rows without one show their stored text), a seeded group by its symbol while it keeps the
 * seeded name, the "unknown" model owner.
 */
export function useServerText() {
  const { t } = useTranslation(SERVER_TEXT_NS);
  const formatQuota = useFormatQuota();
  return {
    logText(log: Pick<LogEntry, 'content' | 'metadata'>): string {
      const msg = logMessageOf(log.metadata);
      if (!msg) return log.content;
      const args: Record<string, string> = {};
      for (const [k, v] of Object.entries(msg.args)) args[k] = isShownAsQuota(k) && typeof v === 'number' ? formatQuota(v, 6) : String(v);
      return t(`log.${msg.key}`, { ...args, defaultValue: log.content });
    },
    groupName(symbol: string, name?: string | null): string {
      if (!name) return symbol;
      return SEEDED_GROUP_NAMES[symbol] === name ? t(`group.${symbol}`, { defaultValue: name }) : name;
    },
    ownerName(name: string): string {
      return name === UNKNOWN_OWNER ? t('owner.unknown') : name;
    },
  };
}

/** A `/api/user_group_map` answer with seeded names in the reader's language (for a query's `select`). */
export function useGroupMapNames(): (map: Record<string, UserGroup>) => Record<string, UserGroup> {
  const { groupName } = useServerText();
  return (map) => Object.fromEntries(Object.entries(map).map(([symbol, g]) => [symbol, { ...g, name: groupName(symbol, g.name) }]));
}
