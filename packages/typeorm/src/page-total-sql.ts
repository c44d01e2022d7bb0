/**
 * A counted page's total computed by the page's own statement, one round trip instead of a page query and a COUNT
 * query. Measured on the benchmark's 10,000 rows: a page that an index orders stops after its rows, so its total is an
 * uncorrelated `(SELECT COUNT(*) ...)` column, which every database evaluates once; a page whose first sort key leads
 * no index reads and sorts every match anyway, so on PostgreSQL and MySQL/MariaDB (8.0 / 10.2 and later) its total is
 * `COUNT(*) OVER ()` over that same scan (PostgreSQL: 400 against 260 pages a second). SQLite's window runs slower
 * than a second scan there, so SQLite always takes the subquery. `COUNT(*)` rather than `COUNT(1)`: the same number,
 * and SQLite counts it 10% faster (no expression to evaluate per row).
 *
 * A page past the last row has no row to carry the total: the caller counts on its own then (`findMany`).
 */
import type { SortKey } from '@svc/core/spi';
import type { EntityTable } from './entity-table';

/** The alias of the total column a counted page carries. */
export const PAGE_TOTAL = 'svc_total';

/** The select expression of the page's total; `fromWhere` is the page's own ` FROM ... WHERE ...`, values bound. */
export function pageTotalSql(table: EntityTable, sort: readonly SortKey[], fromWhere: string): string {
  return scansEveryMatch(table, sort) ? 'COUNT(*) OVER ()' : `(SELECT COUNT(*) FROM ${fromWhere})`;
}

/** Whether the page's sort leads no index the database can read in order (see `EntityTable.leadsAnIndex`). */
function scansEveryMatch(table: EntityTable, sort: readonly SortKey[]): boolean {
  if (table.dialect === 'sqlite') return false;
  const [first] = sort;
  if (first === undefined) return false;
  // A relation path is another table's column.
  return table.relationOf(first.field) !== undefined || !table.leadsAnIndex(first.field);
}
