/**
 * The SQL a keyset page needs beyond plain filters: one null order on every database, and date-times read in the
 * database's own spelling (a JavaScript Date keeps milliseconds; PostgreSQL and MySQL keep microseconds, and SQLite
 * compares its own text), so a boundary handed back compares equal to the row it came from.
 */
import type { DatabaseDialect } from './database-dialect';
import type { EntityTable, TableColumn } from './entity-table';

export interface OrderTerm {
  readonly expression: string;
  readonly order: 'ASC' | 'DESC';
  readonly nulls?: 'NULLS FIRST' | 'NULLS LAST';
}

/**
 * ORDER BY terms for one sort key (a column, or any expression that may be null), a null sorting as larger than any
 * value (PostgreSQL's own order).
 */
export function orderTerms(
  table: EntityTable,
  sorted: TableColumn | { readonly expression: string; readonly nullable: boolean },
  direction: 'asc' | 'desc',
): OrderTerm[] {
  const order = direction === 'desc' ? 'DESC' : 'ASC';
  const [expression, nullable] =
    'quoted' in sorted ? [sorted.quoted, sorted.orm.isNullable] : [sorted.expression, sorted.nullable];
  if (!nullable || table.dialect === 'postgres') return [{ expression, order }];
  if (table.dialect === 'sqlite') {
    return [{ expression, order, nulls: direction === 'desc' ? 'NULLS FIRST' : 'NULLS LAST' }];
  }
  // MySQL and MariaDB have no NULLS FIRST/LAST: sort by "is null" first (0 before 1 ascending).
  return [
    { expression: `(${expression} IS NULL)`, order },
    { expression, order },
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
