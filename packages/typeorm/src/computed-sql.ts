/**
 * The `computed` fields of a read: each field's SQL fragment written into the SELECT list under its name, its values
 * bound, its column references qualified by the row's alias; and each value read back as its kind.
 */
import type { Row } from '@svc/core';
import type { ComputedSelect } from '@svc/core/spi';
import { isColumnReference, isTableReference } from '@svc/core/spi';
import type { EntityTable } from './entity-table';
import type { SqlParameters } from './filter-sql';

/** `, (<sql>) AS "<name>"` for each computed field, for a FROM that names the table `alias`; '' for none. */
export function computedSelectSql(
  table: EntityTable,
  alias: string,
  computed: readonly ComputedSelect[] | undefined,
  params: SqlParameters,
  /** Over a derived table of the page (`pagedSql`), whose columns are named as the inner select read them. */
  paged = false,
): string {
  if (!computed || computed.length === 0) return '';
  const escapedAlias = table.driver.escape(alias);
  return computed
    .map(({ name, sql }) => {
      let text = sql.strings[0]!;
      sql.values.forEach((value, index) => {
        const column = isColumnReference(value) ? table.requireColumn(value.svcColumn) : undefined;
        text += column
          ? `${escapedAlias}.${table.driver.escape(paged ? column.rawKey : column.orm.databaseName)}`
          : isTableReference(value)
            ? table.quotedTableNamed(value.svcTable)
            : params.bind(value);
        text += sql.strings[index + 1]!;
      });
      return `, (${text}) AS ${table.driver.escape(name)}`;
    })
    .join('');
}

/** `row` with each computed field read from `raw` as its kind: drivers give 0/1, `t`, counted text or date text. */
export function withComputedValues(
  row: Row,
  raw: Record<string, unknown>,
  computed: readonly ComputedSelect[] | undefined,
): Row {
  if (!computed) return row;
  for (const { name, kind } of computed) row[name] = readAs(kind, raw[name]);
  return row;
}

function readAs(kind: ComputedSelect['kind'], value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return value === true || value === 't' || value === '1' || (typeof value !== 'string' && Number(value) === 1);
    case 'integer':
    case 'number':
      return typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : Number(value);
    case 'datetime':
      return value instanceof Date ? value : new Date(String(value).includes('T') ? String(value) : `${value}Z`);
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The page's own order, kept by the derived table for the statement around it. */
export const PAGE_ORDER = 'svc_page_order';
