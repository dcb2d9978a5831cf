import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';

/** Static, ordered list of migrations (frozen files; append only). */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
};
