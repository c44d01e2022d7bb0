/**
 * A condition on a relation path (`author.country`) as a subquery on the related table: it keeps root rows that have
 * a related row meeting the condition, and never joins, so paging and the root's columns stay as they are.
 */
import type { OrmColumn } from './orm-metadata';
import type { FilterCondition } from '@svc/core/spi';
import type { EntityTable } from './entity-table';
import { quotePath } from './entity-table';
import { conditionToSql, filterToSql, rowsOfSql, type SqlParameters } from './filter-sql';

export function relationConditionToSql(condition: FilterCondition, table: EntityTable, params: SqlParameters): string {
  const dot = condition.field.indexOf('.');
  const relationName = condition.field.slice(0, dot);
  const field = condition.field.slice(dot + 1);
  const relation = table.orm.findRelationWithPropertyPath(relationName);
  if (!relation) throw new Error(`@svc/typeorm: '${relationName}' is not a relation of ${table.name}.`);
  const target = table.tableOf(relation.inverseEntityMetadata.target as Function);
  const inner = [conditionToSql({ ...condition, field, scope: undefined }, target, params)];
  if (condition.scope) inner.push(filterToSql(condition.scope, target, params));
  inner.push(...rowsOfSql(target, 'live', params));
  const where = inner.join(' AND ');
  const q = (column: OrmColumn) => table.driver.escape(column.databaseName);
  if (relation.isManyToOne || relation.isOneToOneOwner) {
    const join = single(relation.joinColumns, condition.field);
    return `${q(join)} IN (SELECT ${q(join.referencedColumn!)} FROM ${target.quotedPath} WHERE ${where})`;
  }
  if (relation.isOneToMany || relation.isOneToOneNotOwner) {
    const join = single(relation.inverseRelation!.joinColumns, condition.field);
    return `${q(join.referencedColumn!)} IN (SELECT ${q(join)} FROM ${target.quotedPath} WHERE ${where})`;
  }
  const junction = relation.junctionEntityMetadata!;
  const [parentSide, targetSide] = relation.isOwning
    ? [junction.ownerColumns, junction.inverseColumns]
    : [junction.inverseColumns, junction.ownerColumns];
  const parentJoin = single(parentSide, condition.field);
  const targetJoin = single(targetSide, condition.field);
  const junctionPath = quotePath(table.driver, junction.tablePath);
  return (
    `${q(parentJoin.referencedColumn!)} IN (SELECT ${q(parentJoin)} FROM ${junctionPath} WHERE ${q(targetJoin)} IN ` +
    `(SELECT ${q(targetJoin.referencedColumn!)} FROM ${target.quotedPath} WHERE ${where}))`
  );
}

function single(columns: readonly OrmColumn[], path: string): OrmColumn {
  if (columns.length !== 1)
    throw new Error(`@svc/typeorm: '${path}' crosses a multi-column join, which filters cannot follow.`);
  return columns[0]!;
}
