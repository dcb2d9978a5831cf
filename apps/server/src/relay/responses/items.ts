import { HubError } from '../../common/errors.js';
import type { HistoryItem } from '../bridge/responses-history.js';

/** A cursor page of a kept response's input items, as `GET /v1/responses/{id}/input_items` lists them. */
export function pageOf(id: string, input: HistoryItem[], query: Record<string, unknown>) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new HubError(400, 'limit must be an integer between 1 and 100', { type: 'invalid_request_error' });
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw new HubError(400, "order must be 'asc' or 'desc'", { type: 'invalid_request_error' });
  // Items the gateway kept without an id (the caller's own messages) get a stable one.
  const items = input.map((item, i) => ({ ...item, id: typeof item.id === 'string' ? item.id : `msg_${id.replace(/^resp_/, '')}_${i}` }));
  if (order === 'desc') items.reverse();
  let start = 0;
  if (query.after !== undefined) {
    start = items.findIndex((item) => item.id === query.after) + 1;
    if (start === 0) throw new HubError(400, `no input item ${String(query.after)} in response ${id}`, { type: 'invalid_request_error' });
  }
  const data = items.slice(start, start + limit);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < items.length };
}
