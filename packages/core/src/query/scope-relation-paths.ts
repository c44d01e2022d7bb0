/**
 * Keeps a read inside the scopes it crosses: the caller's own (`filter.apply`), and each related entity's for a relation
 * path in a condition or a sort key.
 */
import type { ApplyArgs } from '../config/entity-config';
import { relationOfPath } from '../config/resolve-field-path';
import type { SvcContext } from '../config/svc-context';
import { andFilters, type FilterNode, type SortKey } from '../persistence/query-ast';
import type { ListQueryConfig } from './list-query-config';
import { visibleRows } from './visible-rows';
import { clientNamed } from './client-named';

/**
 * The condition a read runs: the caller's scope (`filter.apply`) ANDed with the given conditions, and every relation
 * path in them kept inside its entity's own scope.
 */
export async function scopedWhere(
  config: ListQueryConfig,
  args: { operation: string; context: SvcContext },
  ...nodes: (FilterNode | undefined)[]
): Promise<FilterNode | undefined> {
  const applyNode = await visibleRows(
    { name: config.entity, filterApply: config.filterApply, serverFilter: config.serverFilter },
    args,
  );
  const where = andFilters(applyNode, ...nodes);
  return where && config.relationScope ? scopeRelationPaths(where, config, args) : where;
}

/** Gives each relation-path sort key the related entity's own scope: a row outside it lends no value (sorts as null). */
export async function scopeSortPaths(
  sort: readonly SortKey[],
  config: ListQueryConfig,
  args: ApplyArgs,
): Promise<SortKey[]> {
  return Promise.all(
    sort.map(async (key) => {
      const relation = relationOfPath(key.field, config.columns);
      if (relation === undefined) return key;
      const scope = await config.relationScope!(relation, args, key.field, 'sort', clientNamed(key));
      return scope ? { ...key, scope } : key;
    }),
  );
}

/** Gives each relation-path condition the related entity's own scope, so a filter cannot probe rows outside it. */
export async function scopeRelationPaths(
  node: FilterNode,
  config: ListQueryConfig,
  args: ApplyArgs,
): Promise<FilterNode> {
  switch (node.kind) {
    case 'condition': {
      const relation = relationOfPath(node.field, config.columns);
      if (relation === undefined) return node;
      const scope = await config.relationScope!(relation, args, node.field, 'filter', clientNamed(node));
      return scope ? { ...node, scope } : node;
    }
    case 'not':
      return { kind: 'not', child: await scopeRelationPaths(node.child, config, args) };
    default:
      return {
        kind: node.kind,
        children: await Promise.all(node.children.map((child) => scopeRelationPaths(child, config, args))),
      };
  }
}
