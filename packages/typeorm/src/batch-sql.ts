/** The SQL of the adapter's set-based writes: the condition matching a set of keys, and one UPDATE of per-row values. */
import type { EntityKey, Row } from '@svc/core';
import type { ObjectLiteral } from 'typeorm';
import type { DatabaseDialect } from './database-dialect';
import type { EntityTable } from './entity-table';
import { keyToSql, type SqlParameters } from './filter-sql';

/**
 * Bound parameters one statement carries at most, with room under each database's own limit: SQLite's
 * SQLITE_MAX_VARIABLE_NUMBER (32,766 since 3.32), PostgreSQL's wire protocol (65,535: the count is 16 bits) and
 * MySQL/MariaDB's prepared statements (65,535; TypeORM's mysql2 driver inlines the values, under max_allowed_packet).
 */
export const PARAMETER_BUDGET: Readonly<Record<DatabaseDialect, number>> = {
  sqlite: 30_000,
  postgres: 60_000,
  mysql: 60_000,
};

/**
 * Rows one statement writes or addresses at most, whatever the parameter budget would allow (SQLAlchemy's page size
 * for multi-row INSERTs, too). Larger statements gain nothing: 20,000 books take as long on SQLite and MariaDB, and
 * longer on PostgreSQL (1.0 s against 0.85 s); each distinct INSERT text stays prepared in TypeORM's better-sqlite3
 * statement cache (100 entries; 2.6 MB for one of 3,333 rows of 9 columns); and it must fit MySQL's packet limit.
 */
export const ROWS_PER_STATEMENT = 1_000;

/**
 * Rows one `caseUpdateSql` statement sets at most. Each row walks the WHEN branches of every CASE up to its own, so a
 * statement's work grows with the square of its rows: 1,000 rows of 4 columns took 152 ms on SQLite in statements of
 * 1,000 rows and 44 ms in statements of 200 (PostgreSQL 81 and 80 ms, MariaDB 79 and 57 ms), where one UPDATE per row
 * took 192, 535 and 376 ms.
 */
export const CASE_ROWS_PER_STATEMENT = 200;

/** One column an UPDATE sets: its quoted name, and the value as the driver binds it for that column. */
export interface ColumnWrite {
  readonly column: string;
  readonly value: unknown;
}

/** One row's part of `caseUpdateSql`: its key and the columns it sets. */
export interface RowWrites {
  readonly key: EntityKey;
  readonly writes: readonly ColumnWrite[];
}

/**
 * The condition matching exactly the rows of `keys`: `"id" IN (...)` for keys of one property, else an OR of each
 * key's `a = ? AND b = ?`. The ORs nest as a balanced tree, as SQLite refuses an expression more than 1,000 levels
 * deep, which a flat chain of 1,000 ORs is (PostgreSQL and MySQL flatten them either way).
 */
export function keySetSql(keys: readonly EntityKey[], table: EntityTable, params: SqlParameters): string {
  if (keys.length === 0) return '1 = 0';
  const [property, ...others] = Object.keys(keys[0]!);
  const single =
    property !== undefined &&
    others.length === 0 &&
    keys.every((key) => Object.keys(key).length === 1 && key[property] !== undefined);
  if (single) {
    const column = table.requireColumn(property);
    const values = keys.map((key) => params.bind(table.persistentValue(column, key[property])));
    return `${column.quoted} IN (${values.join(', ')})`;
  }
  return balancedOr(keys.map((key) => `(${keyToSql(key, table, params)})`));
}

function balancedOr(terms: readonly string[]): string {
  if (terms.length === 1) return terms[0]!;
  const middle = terms.length >> 1;
  return `(${balancedOr(terms.slice(0, middle))} OR ${balancedOr(terms.slice(middle))})`;
}

/**
 * The columns `values` (shaped by `toEntityValues`) set, each value as the driver binds it: own columns TypeORM lets
 * update (one with `update: false` is skipped, as TypeORM's UPDATE skips it), and the join columns of a relation
 * written as `{ <targetKey>: value }` or null.
 */
export function columnWrites(values: Row, table: EntityTable): ColumnWrite[] {
  const writes: ColumnWrite[] = [];
  for (const [property, value] of Object.entries(values)) {
    const column = table.column(property);
    if (column) {
      if (column.orm.isUpdate) writes.push({ column: column.quoted, value: table.persistentValue(column, value) });
      continue;
    }
    for (const join of table.orm.findRelationWithPropertyPath(property)?.joinColumns ?? []) {
      const target =
        value !== null && typeof value === 'object'
          ? join.referencedColumn?.getEntityValue(value as ObjectLiteral)
          : value;
      const bound = table.driver.preparePersistentValue(target ?? null, join);
      writes.push({ column: table.driver.escape(join.databaseName), value: bound });
    }
  }
  return writes;
}

/** Parameters `caseUpdateSql` binds for one row, at most: its key in each WHEN and in the WHERE, and each value. */
export function caseUpdateParameters(row: RowWrites): number {
  const keyWidth = Object.keys(row.key).length;
  return keyWidth * (row.writes.length + 1) + row.writes.length;
}

/**
 * `UPDATE t SET c = CASE WHEN <key 1> THEN :v1 WHEN <key 2> THEN :v2 ELSE c END, ... WHERE <keys>`: each row's own
 * values in one statement. A column a row leaves out keeps its value there (ELSE the column itself), but the
 * update-date column is set to now and the version column counted up on every row unless the row sets them, as
 * TypeORM's own UPDATE does. No cast is needed on PostgreSQL: CASE gives its untyped parameters the type of its typed
 * branch, the ELSE column. A key's condition is bound once per row and its text repeated in each CASE (PostgreSQL
 * then sends each key value once).
 */
export function caseUpdateSql(table: EntityTable, rows: readonly RowWrites[], params: SqlParameters): string {
  const branches = new Map<string, string[]>();
  for (const row of rows) {
    const condition = keyToSql(row.key, table, params);
    for (const write of row.writes) {
      let whens = branches.get(write.column);
      if (!whens) branches.set(write.column, (whens = []));
      whens.push(`WHEN ${condition} THEN ${params.bind(write.value)}`);
    }
  }
  const automatic = automaticValues(table);
  const assignments = [...branches].map(
    ([column, whens]) => `${column} = CASE ${whens.join(' ')} ELSE ${automatic.get(column) ?? column} END`,
  );
  for (const [column, value] of automatic) if (!branches.has(column)) assignments.push(`${column} = ${value}`);
  const where = keySetSql(
    rows.map((row) => row.key),
    table,
    params,
  );
  return `UPDATE ${table.quotedPath} SET ${assignments.join(', ')} WHERE ${where}`;
}

/** Columns every UPDATE of TypeORM's sets by itself: the update date to now, the version one up. */
function automaticValues(table: EntityTable): Map<string, string> {
  const values = new Map<string, string>();
  const { updateDateColumn, versionColumn } = table.orm;
  if (updateDateColumn) values.set(table.driver.escape(updateDateColumn.databaseName), 'CURRENT_TIMESTAMP');
  if (versionColumn) {
    const quoted = table.driver.escape(versionColumn.databaseName);
    values.set(quoted, `${quoted} + 1`);
  }
  return values;
}
