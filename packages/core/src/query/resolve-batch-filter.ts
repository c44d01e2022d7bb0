/** The filter a batch write by filter (`PATCH /`, `DELETE /`) changes the rows of: required, and all it takes. */
import type { FindManyQuery } from '../config/entity-config';
import type { SvcContext } from '../config/svc-context';
import { QueryErrors } from '../errors/query-errors';
import type { FilterNode } from '../persistence/query-ast';
import type { ListQueryConfig } from './list-query-config';
import type { QueryPairs } from './parse-query-string';
import { readListParams, refuseParams, type WireListQuery } from './read-list-params';
import { resolveClientFilter } from './resolve-client-filter';
import { scopeRelationPaths } from './scope-relation-paths';

/** What a batch write by filter takes: the filter, in either form. */
const FILTER_PARAMS: ReadonlySet<keyof WireListQuery> = new Set(['filter', 'filterJson']);

/**
 * The filter of a batch write (`PATCH /`, `DELETE /`): the list grammar's `filter` alone, under the same allowlist and
 * limits, with relation paths kept inside their entities' scopes. It is required (a batch never changes every row for
 * want of one); any other list parameter is refused, naming it. The caller's own scope is not in it: the batch adds it.
 */
export async function resolveBatchFilter(
  query: QueryPairs | FindManyQuery | undefined,
  config: ListQueryConfig,
  args: { operation: string; context: SvcContext },
): Promise<FilterNode> {
  const errors = new QueryErrors();
  const wire: WireListQuery = Array.isArray(query)
    ? readListParams(query as QueryPairs, errors)
    : { filterJson: (query as FindManyQuery | undefined)?.filter };
  const refuse = (param: string) =>
    errors.unsupportedParam(param, `${param} is not taken by ${args.operation}, which takes a filter only. Remove it.`);
  refuseParams(wire, FILTER_PARAMS, refuse);
  if (!Array.isArray(query) && query !== undefined) {
    for (const key of Object.keys(query)) if (key !== 'filter') refuse(key);
  }
  const filter = resolveClientFilter(wire, config.filter, errors);
  if (!filter && errors.empty) {
    errors.add(
      'filter',
      'required',
      `${args.operation} needs a filter naming the rows to change, such as filter[id][in]=1,2. It never changes every row for want of one.`,
    );
  }
  errors.throwIfAny();
  return config.relationScope ? scopeRelationPaths(filter!, config, args) : filter!;
}
