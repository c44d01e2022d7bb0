/**
 * The clauses of the SELECTs the adapter writes itself over an entity's table: the table's alias, the WHERE of a key,
 * a filter and a row view, the row lock, and the page.
 */
import type { EntityKey, FilterNode } from '@svc/core';
import type { AdapterSession, RowView } from '@svc/core/spi';
import type { DatabaseDialect } from './database-dialect';
import type { EntityTable } from './entity-table';
import { filterToSql, keyToSql, rowsOfSql, type SqlParameters } from './filter-sql';

/**
 * Alias of the entity's table in SELECTs. Its own columns are referenced unqualified; only the correlated subquery of
 * a relation-path sort names it, to reach the root's join column, and an aggregate, beside the tables it joins.
 */
export const TABLE_ALIAS = 'svc_row';

export interface WhereArgs {
  readonly where?: FilterNode;
  readonly key?: EntityKey;
  readonly view: RowView;
}

/**
 * ` WHERE ...` with the key, filter and view conditions (empty when there are none), binding into `params`. The
 * view is the adapter's own soft-delete condition; TypeORM's is never added, as these statements bypass its builder.
 * A child entity of single-table inheritance reads its own rows only (`rowsOfSql`).
 */
export function whereSql(table: EntityTable, args: WhereArgs, params: SqlParameters): string {
  const conditions: string[] = [];
  if (args.key) conditions.push(keyToSql(args.key, table, params));
  if (args.where) conditions.push(filterToSql(args.where, table, params));
  conditions.push(...rowsOfSql(table, args.view, params));
  return conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * ` FOR UPDATE` when a read in a session asks to lock its rows: TypeORM's pessimistic_write, as it writes it on
 * PostgreSQL and MySQL/MariaDB. SQLite has none: its one writer locks the whole database for the transaction.
 */
export function lockSql(
  table: EntityTable,
  args: { readonly lock?: boolean; readonly session?: AdapterSession },
): string {
  return args.lock && args.session && table.dialect !== 'sqlite' ? ' FOR UPDATE' : '';
}

/**
 * ` LIMIT :n OFFSET :m`, both bound, so pages of one shape share one SQL text. SQLite takes no OFFSET without a
 * LIMIT (-1: none); PostgreSQL does, and MySQL's caller always gives one.
 */
export function pageSql(
  dialect: DatabaseDialect,
  limit: number | undefined,
  offset: number | undefined,
  params: SqlParameters,
): string {
  let sql =
    limit !== undefined
      ? ` LIMIT ${params.bind(limit)}`
      : offset !== undefined && dialect === 'sqlite'
        ? ' LIMIT -1'
        : '';
  if (offset !== undefined) sql += ` OFFSET ${params.bind(offset)}`;
  return sql;
}
