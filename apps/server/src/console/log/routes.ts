import { parseJsonOr } from '../../common/json.js';
import type { FastifyInstance } from 'fastify';
import { DeleteLogsQuery, LogListQuery, PageQuery, ROLE, type DashboardRow, type LogEntry } from '@one-hub/contract';
import type { AppContext } from '../../app-context.js';
import { requireRole } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { ok } from '../../http/envelope.js';
import { paginate } from '../../db/paginate.js';
import { LOG_ORDER_COLUMNS, deleteConsumeLogsBefore, logListQuery, sumConsumedQuota } from '../../db/repos/logs.js';
import { userDailyUsage } from '../../db/repos/statistics.js';
import type { LogsTable } from '../../db/schema.js';
import type { Selectable } from 'kysely';

type LogRow = Selectable<LogsTable> & { channel_name: string | null };

function toLogJson(row: LogRow, admin: boolean): LogEntry {
  const metadata = parseJsonOr<Record<string, unknown> | null>(row.metadata, null);
  return {
    id: admin ? row.id : 0,
    user_id: row.user_id,
    created_at: row.created_at,
    type: row.type,
    content: row.content ?? '',
    username: row.username,
    token_name: row.token_name,
    model_name: row.model_name,
    quota: row.quota,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cache_read_tokens: row.cache_read_tokens,
    cache_write_tokens: row.cache_write_tokens,
    reasoning_tokens: row.reasoning_tokens,
    channel_id: row.channel_id,
    request_time: row.request_time,
    is_stream: row.is_stream === 1,
    source_ip: row.source_ip,
    group: row.group,
    estimated: row.estimated === 1,
    metadata,
    channel: admin && row.channel_name !== null ? { id: row.channel_id, name: row.channel_name } : null,
  };
}

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = requireRole(ctx, ROLE.common);
  const admin = requireRole(ctx, ROLE.admin);
  const order = LOG_ORDER_COLUMNS.map((c) => c);

  app.get('/log/', { preHandler: admin }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(LogListQuery, req.query);
    return ok(await paginate(logListQuery(ctx.db, f), q, order, (r: LogRow) => toLogJson(r, true), '-id', 'logs'));
  });
  app.get('/log/self', { preHandler: user }, async (req) => {
    const q = parse(PageQuery, req.query);
    const f = parse(LogListQuery, req.query);
    return ok(await paginate(logListQuery(ctx.db, f, req.user!.id), q, order, (r: LogRow) => toLogJson(r, false), '-id', 'logs'));
  });
  app.get('/log/stat', { preHandler: admin }, async (req) => ok({ quota: await sumConsumedQuota(ctx.db, parse(LogListQuery, req.query)) }));
  app.get('/log/self/stat', { preHandler: user }, async (req) => {
    return ok({ quota: await sumConsumedQuota(ctx.db, parse(LogListQuery, req.query), req.user!.id) });
  });
  app.delete('/log/', { preHandler: admin }, async (req) => {
    return ok(await deleteConsumeLogsBefore(ctx.db, parse(DeleteLogsQuery, req.query).target_timestamp));
  });
  // Seven calendar days ending today (UTC), as the console draws them.
  app.get('/user/dashboard', { preHandler: user }, async (req) => {
    const now = Date.now();
    const rows = await userDailyUsage(ctx.db, req.user!.id, day(now - 6 * DAY), day(now));
    const data: DashboardRow[] = rows.map((r) => ({
      Date: r.date,
      ModelName: r.model_name,
      RequestCount: Number(r.request_count),
      Quota: Number(r.quota),
      PromptTokens: Number(r.prompt_tokens),
      CompletionTokens: Number(r.completion_tokens),
      RequestTime: Number(r.request_time),
    }));
    return ok(data);
  });
}
