import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_prices_unique_model.js';
import * as m0003 from './0003_stored_responses.js';
import * as m0004 from './0004_session_version.js';
import * as m0005 from './0005_quota_leases.js';
import * as m0006 from './0006_order_fail_reason.js';
import * as m0007 from './0007_sign_in.js';
import * as m0009 from './0009_quota_alerts.js';
import * as m0012 from './0012_limits_and_audit.js';
import * as m0013 from './0013_plans.js';
import * as m0014 from './0014_price_tiers.js';
import * as m0015 from './0015_job_runs.js';
import * as m0016 from './0016_log_list_indexes.js';
import * as m0018 from './0018_two_factor_sealed.js';
import * as m0019 from './0019_statistics_totals.js';
import * as m0020 from './0020_task_plans.js';
import * as m0022 from './0022_capture_stream.js';
import * as m0023 from './0023_task_limit_windows.js';
import * as m0024 from './0024_response_owners.js';
import * as m0025 from './0025_price_service_ratios.js';
import * as m0026 from './0026_message_batches.js';
import * as m0027 from './0027_task_charge_stat.js';
import * as m0028 from './0028_background_responses.js';
import * as m0030 from './0030_mcp_servers.js';
import * as m0031 from './0031_log_deletions.js';

/** Static, ordered list of migrations (frozen files; append only). */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_prices_unique_model': m0002,
  '0003_stored_responses': m0003,
  '0004_session_version': m0004,
  '0005_quota_leases': m0005,
  '0006_order_fail_reason': m0006,
  '0007_sign_in': m0007,
  '0009_quota_alerts': m0009,
  '0012_limits_and_audit': m0012,
  '0013_plans': m0013,
  '0014_price_tiers': m0014,
  '0015_job_runs': m0015,
  '0016_log_list_indexes': m0016,
  '0018_two_factor_sealed': m0018,
  '0019_statistics_totals': m0019,
  '0020_task_plans': m0020,
  '0022_capture_stream': m0022,
  '0023_task_limit_windows': m0023,
  '0024_response_owners': m0024,
  '0025_price_service_ratios': m0025,
  '0026_message_batches': m0026,
  '0027_task_charge_stat': m0027,
  '0028_background_responses': m0028,
  '0030_mcp_servers': m0030,
  '0031_log_deletions': m0031,
};
