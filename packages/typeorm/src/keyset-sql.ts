/**
 * The SQL a keyset page needs beyond plain filters: one null order on every database, and date-times read in the
 * database's own spelling (a JavaScript Date keeps milliseconds; PostgreSQL and MySQL keep microseconds, and SQLite
 * compares its own text), so a boundary handed back compares equal to the row it came from.
 */
import type { DatabaseDialect } from './database-dialect';
import type { EntityTable, TableColumn } from './entity-table';

/** ORDER BY terms for one sort key, a null sorting as larger than any value (PostgreSQL's own order). */
export function orderTerms(
  table: EntityTable,
  column: TableColumn,
  direction: 'asc' | 'desc',
): { expression: string; order: 'ASC' | 'DESC'; nulls?: 'NULLS FIRST' | 'NULLS LAST' }[] {
  const order = direction === 'desc' ? 'DESC' : 'ASC';
  if (!column.orm.isNullable || table.dialect === 'postgres') return [{ expression: column.quoted, order }];
  if (table.dialect === 'sqlite') {
    return [{ expression: column.quoted, order, nulls: direction === 'desc' ? 'NULLS FIRST' : 'NULLS LAST' }];
  }
  // MySQL and MariaDB have no NULLS FIRST/LAST: sort by "is null" first (0 before 1 ascending).
  return [
    { expression: `(${column.quoted} IS NULL)`, order },
    { expression: column.quoted, order },
  ];
}

/** A select expression giving a date-time column's value as the database spells it, exactly. */
export function exactSpellingSql(dialect: DatabaseDialect, column: TableColumn, normalizedType: string): string {
  const col = column.quoted;
  switch (dialect) {
    case 'postgres':
      return /with time zone|timestamptz/.test(normalizedType)
        ? `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'`
        : `to_char(${col}, 'YYYY-MM-DD HH24:MI:SS.US')`;
    case 'mysql':
      return `DATE_FORMAT(${col}, '%Y-%m-%d %H:%i:%s.%f')`;
    case 'sqlite':
      // SQLite keeps the text it was given (TypeORM's `2026-11-23 19:11:29.123`, or `datetime('now')`'s shorter
      // spelling for a database-written default); comparing that text with itself is exact for both.
      return `CAST(${col} AS TEXT)`;
  }
}
