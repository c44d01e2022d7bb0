/**
 * From a wire or programmatic count query (`GET /count`, `service.count`) to what the adapter counts: the list
 * grammar's filter, search and row view, under the same allowlists, limits and caller scope as the entity's list.
 * Anything else of the list grammar (sort, select, paging) is refused by name: a count has no rows to order or page.
 */
import type { CountQuery } from '../config/entity-config';
import type { SvcContext } from '../config/svc-context';
import { QueryErrors } from '../errors/query-errors';
import type { FilterNode, RowView } from '../persistence/query-ast';
import type { ListQueryConfig } from './list-query-config';
import type { QueryPairs } from './parse-query-string';
import { programmaticMatch, readListParams, refuseParams, type WireListQuery } from './read-list-params';
import { resolveClientFilter } from './resolve-client-filter';
import { readSearch, readView } from './resolve-list-query';
import { scopedWhere } from './scope-relation-paths';

/** What a count reads: the rows a caller may see that match, in a row view. */
export interface CountPlan {
  readonly where?: FilterNode;
  readonly view: RowView;
}

/** What of the list grammar a count takes. */
const TAKEN: ReadonlySet<keyof WireListQuery> = new Set([
  'filter',
  'filterJson',
  'search',
  'withDeleted',
  'onlyDeleted',
  'params',
]);
const PROGRAMMATIC = new Set(['filter', 'search', 'withDeleted', 'onlyDeleted']);
const TAKES = 'a count takes filter, search[query], withDeleted and onlyDeleted';

export interface CountQueryArgs {
  readonly list: ListQueryConfig;
  readonly operation: string;
  readonly context: SvcContext;
}

/** Resolves query-string pairs (`GET /count?filter[pages][gte]=100`) or a programmatic query (`service.count`). */
export async function resolveCountQuery(query: QueryPairs | CountQuery, args: CountQueryArgs): Promise<CountPlan> {
  const errors = new QueryErrors();
  const { list } = args;
  const wire = Array.isArray(query)
    ? readListParams(query as QueryPairs, errors, list.filterParams)
    : wireOf(query as CountQuery, errors);
  refuseParams(wire, TAKEN, (param) =>
    errors.unsupportedParam(param, `${param} is not taken here: ${TAKES}. Remove it.`),
  );
  const filter = resolveClientFilter(wire, list.filter, errors, list.filterParams);
  const hasClientFilter = wire.filterJson !== undefined || wire.filter !== undefined || wire.params !== undefined;
  const view = readView(wire, list, errors);
  const search = readSearch(wire, list, errors);
  errors.throwIfAny();
  const queryArgs = { operation: args.operation, context: args.context };
  const where = await scopedWhere(list, queryArgs, hasClientFilter ? filter : list.filterDefault, search);
  return { ...(where ? { where } : {}), view };
}

function wireOf(query: CountQuery, errors: QueryErrors): WireListQuery {
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && !PROGRAMMATIC.has(key))
      errors.unsupportedParam(key, `${key} is not a key of a count query: ${TAKES}.`);
  return programmaticMatch(query);
}
