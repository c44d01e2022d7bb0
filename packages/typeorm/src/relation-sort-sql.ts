/**
 * Ordering by a to-one relation path (`sort=author.name`): the related row's value through a correlated scalar
 * subquery, so the root's rows and paging stay as they are. A row with no related row, or one outside the related
 * entity's scope or soft-deleted, lends null, which sorts as the largest value, as every null does.
 */
import type { SortKey } from '@svc/core/spi';
import type { EntityTable } from './entity-table';
import { filterToSql, rowsOfSql, type SqlParameters } from './filter-sql';
import { orderTerms, type OrderTerm } from './keyset-sql';

export function relationOrderTerms(
  table: EntityTable,
  rootAlias: string,
  key: SortKey,
  params: SqlParameters,
): OrderTerm[] {
  const dot = key.field.indexOf('.');
  const relationName = key.field.slice(0, dot);
  const relation = table.orm.findRelationWithPropertyPath(relationName);
  if (!relation || !(relation.isManyToOne || relation.isOneToOneOwner) || relation.joinColumns.length !== 1)
    throw new Error(`@svc/typeorm: '${key.field}' does not cross an owning to-one relation of ${table.name}.`);
  const target = table.tableOf(relation.inverseEntityMetadata.target as Function);
  const column = target.requireColumn(key.field.slice(dot + 1));
  const join = relation.joinColumns[0]!;
  const q = (name: string) => table.driver.escape(name);
  // Unqualified names inside the subquery are the related table's; the root's join column is named by its alias.
  const inner = [`${q(join.referencedColumn!.databaseName)} = ${q(rootAlias)}.${q(join.databaseName)}`];
  if (key.scope) inner.push(filterToSql(key.scope, target, params));
  inner.push(...rowsOfSql(target, 'live', params));
  const value = `(SELECT ${column.quoted} FROM ${target.quotedPath} WHERE ${inner.join(' AND ')})`;
  return orderTerms(table, { expression: value, nullable: true }, key.direction);
}
