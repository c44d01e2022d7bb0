/** From a wire or programmatic list query to what the adapter runs: filter, sort, page, count and row view. */
import type { FindManyQuery } from '../config/entity-config';
import type { SvcContext } from '../config/svc-context';
import type { ListQueryConfig } from './list-query-config';
import type { FilterNode, RowView, SortKey } from '../persistence/query-ast';
import { QueryErrors } from '../errors/query-errors';
import type { QueryPairs } from './parse-query-string';
import { joined, programmaticMatch, readListParams, type WireListQuery } from './read-list-params';
import { ConfigurationException } from '../errors/configuration-exception';
import { resolveSearch } from './search-config';
import type { PagePlan } from '../pagination/pagination-strategy';
import type { IncludeNode } from './include-tree';
import { finishSort, parseSortKeys, splitSortParam } from './resolve-sort';
import { resolveClientFilter } from './resolve-client-filter';
import { resolveItemShape } from './resolve-item-query';
import { scopedWhere, scopeSortPaths } from './scope-relation-paths';

/** A resolved list read: the strategy's page plus the condition, order, row view and shape of the items. */
export interface ListReadPlan extends PagePlan {
  readonly where?: FilterNode;
  readonly sort: readonly SortKey[];
  readonly count: boolean;
  readonly view: RowView;
  /** The fields each item serves. */
  readonly select: readonly string[];
  readonly include: readonly IncludeNode[];
}

/** Resolves raw query-string pairs (the wire). */
export function resolveWireListQuery(
  pairs: QueryPairs,
  config: ListQueryConfig,
  operation: string,
  context: SvcContext,
): Promise<ListReadPlan> {
  const errors = new QueryErrors();
  const wire = readListParams(pairs, errors, config.filterParams);
  return resolveQuery(wire, config, errors, { operation, context });
}

/** Resolves a programmatic query (`service.findMany(query)`), under the same allowlists and limits. */
export function resolveProgrammaticListQuery(
  query: FindManyQuery,
  config: ListQueryConfig,
  operation: string,
  context: SvcContext,
): Promise<ListReadPlan> {
  const errors = new QueryErrors();
  const known = new Set([
    'filter',
    'sort',
    'limit',
    'offset',
    'page',
    'cursor',
    'since',
    'withDeleted',
    'onlyDeleted',
    'select',
    'search',
    'include',
  ]);
  for (const key of Object.keys(query))
    if (!known.has(key)) errors.unsupportedParam(key, `${key} is not a query key of this resource.`);
  const wire: WireListQuery = {
    ...programmaticMatch(query),
    sort: joined(query.sort),
    paging: programmaticPaging(query),
    select: joined(query.select),
    include: joined(query.include),
  };
  return resolveQuery(wire, config, errors, { operation, context });
}

async function resolveQuery(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<ListReadPlan> {
  const clientFilter = resolveClientFilter(wire, config.filter, errors, config.filterParams);
  const hasClientFilter = wire.filterJson !== undefined || wire.filter !== undefined || wire.params !== undefined;
  const requested =
    wire.sort === undefined ? config.sortDefault : parseSortKeys(splitSortParam(wire.sort), config.sort, errors);
  const forcedKeys = config.sortApply?.(args);
  const forced = forcedKeys ? serverSortKeys(forcedKeys, config) : [];
  const sort = finishSort(forced, requested, config.sort.primaryKeys);
  const page = planPage(wire, config, errors, sort);
  const view = readView(wire, config, errors);
  const search = readSearch(wire, config, errors);
  const { select, include } = await resolveItemShape(wire, config, errors, args);
  errors.throwIfAny();
  return {
    where: await scopedWhere(config, args, hasClientFilter ? clientFilter : config.filterDefault, search),
    sort: config.relationScope ? await scopeSortPaths(sort, config, args) : sort,
    ...page,
    count: config.pagination.count,
    view,
    select,
    include,
  };
}

/** The strategy reads its own parameters; a pagination parameter it does not take is refused, naming it. */
function planPage(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  sort: readonly SortKey[],
): PagePlan {
  const { strategy } = config.pagination;
  for (const param of wire.paging?.keys() ?? []) {
    if (!strategy.params.includes(param)) {
      const instead =
        strategy.params.length > 0
          ? `Use ${strategy.params.join(' and ')}.`
          : 'This resource serves the whole match set.';
      errors.unsupportedParam(
        param,
        `${param} is not taken under the '${strategy.name}' pagination strategy. ${instead}`,
      );
    }
  }
  if (strategy.ownsSort && wire.sort !== undefined) {
    errors.unsupportedParam(
      'sort',
      `sort is not taken under the '${strategy.name}' pagination strategy, which sets the order itself. Remove it.`,
    );
  }
  const context = {
    sort,
    columns: config.columns,
    primaryKeys: config.sort.primaryKeys,
    refuseKey: config.refuseCursorKey,
  };
  return strategy.plan({ params: wire.paging ?? new Map(), settings: config.pagination, errors, context });
}

/** `{ limit, offset, page: { number, size } }` as the wire's pagination parameters. */
function programmaticPaging(query: FindManyQuery): Map<string, string> {
  const paging = new Map<string, string>();
  const put = (param: string, value: unknown) => value !== undefined && paging.set(param, String(value));
  put('limit', query.limit);
  put('offset', query.offset);
  put('page[number]', query.page?.number);
  put('page[size]', query.page?.size);
  put('cursor', query.cursor);
  put('since', query.since);
  return paging;
}

export function readSearch(wire: WireListQuery, config: ListQueryConfig, errors: QueryErrors): FilterNode | undefined {
  if (!config.search) {
    if (wire.search !== undefined) {
      errors.unsupportedParam(
        'search[query]',
        'search is disabled on this resource. Remove search[query], or use filter.',
      );
    }
    return undefined;
  }
  return resolveSearch(config.search, wire.search, errors);
}

/** `sort.apply` is server code: a key it may not use is a configuration error, not the client's. */
function serverSortKeys(keys: readonly string[], config: ListQueryConfig): SortKey[] {
  const errors = new QueryErrors();
  const out = parseSortKeys(keys, config.sort, errors, 'sort.apply');
  try {
    errors.throwIfAny();
  } catch (error) {
    const detail = (error as { errors?: { detail: string }[] }).errors?.map((item) => item.detail).join(' ');
    throw new ConfigurationException({
      entity: config.entity,
      path: 'sort.apply',
      message: `returned an invalid sort: ${detail}`,
    });
  }
  return out;
}

export function readView(wire: WireListQuery, config: ListQueryConfig, errors: QueryErrors): RowView {
  const withDeleted = readFlag(wire.withDeleted, 'withDeleted', config, errors);
  const onlyDeleted = readFlag(wire.onlyDeleted, 'onlyDeleted', config, errors);
  if (!config.softDelete) return 'all';
  if (withDeleted && onlyDeleted) {
    errors.add('onlyDeleted', 'conflict', 'withDeleted and onlyDeleted cannot both be true. Send one.');
  }
  return onlyDeleted ? 'deleted' : withDeleted ? 'all' : 'live';
}

function readFlag(value: string | undefined, param: string, config: ListQueryConfig, errors: QueryErrors): boolean {
  if (value === undefined) return false;
  if (!config.softDelete) {
    errors.unsupportedParam(param, `${param} is taken only by soft-delete resources. Remove it.`);
    return false;
  }
  if (value !== 'true' && value !== 'false') errors.add(param, 'invalid_value', `${param} must be true or false.`);
  return value === 'true';
}
