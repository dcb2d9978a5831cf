import { sql, type Expression, type SqlBool } from 'kysely';

// One escape character that needs no escaping inside an SQL string literal on any dialect
// (a backslash does on MySQL, and SQLite has no default LIKE escape at all).
const ESC = '!';

/** `column LIKE pattern ESCAPE '!'` where `pattern` was built with likeText(); works the same on all three dialects. */
export function likeMatch(column: string, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape ${sql.lit(ESC)}`;
}

/** User input made literal inside a LIKE pattern; callers add their own `%`. */
export function likeText(value: string): string {
  return value.replace(/[!%_]/g, (c) => `${ESC}${c}`);
}
