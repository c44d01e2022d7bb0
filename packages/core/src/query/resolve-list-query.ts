/** From a wire or programmatic list query to what the adapter runs: filter, sort, page, count and row view. */
import type { FindManyQuery } from '../config/entity-config';
import type { SvcContext } from '../config/svc-context';
import type { ListQueryConfig } from './list-query-config';
import { andFilters, type FilterNode, type RowView, type SortKey } from '../persistence/query-ast';
import { QueryErrors } from '../errors/query-errors';
import type { QueryPairs } from './parse-query-string';
import { readListParams, type WireListQuery } from './read-list-params';
import { resolveFilterExpression } from './resolve-filter-expression';
import type { FilterAllowlist } from './filter-allowlist';
import { visibleRows } from './visible-rows';
import { ConfigurationException } from '../errors/configuration-exception';
import { resolveSearch } from './search-config';
import { resolveSelect } from './select-config';
import type { PagePlan } from '../pagination/pagination-strategy';
import type { ApplyArgs } from '../config/entity-config';
import type { IncludeNode } from './include-tree';
import { finishSort, parseSortKeys, splitSortParam } from './resolve-sort';
import { relationOfPath } from '../config/resolve-field-path';

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
  const wire = readListParams(pairs, errors);
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
    filterJson: query.filter,
    sort: joined(query.sort),
    paging: programmaticPaging(query),
    withDeleted: query.withDeleted === undefined ? undefined : String(query.withDeleted),
    onlyDeleted: query.onlyDeleted === undefined ? undefined : String(query.onlyDeleted),
    select: joined(query.select),
    search: query.search,
    include: joined(query.include),
  };
  return resolveQuery(wire, config, errors, { operation, context });
}

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

export interface ItemReadPlan {
  readonly select: readonly string[];
  readonly include: readonly IncludeNode[];
}

const ITEM_PARAMS: ReadonlySet<keyof WireListQuery> = new Set(['select', 'include', 'relationSelects']);
/** What a batch write by filter takes: the filter, in either form. */
const FILTER_PARAMS: ReadonlySet<keyof WireListQuery> = new Set(['filter', 'filterJson']);

/** Refuses every parameter the wire holds outside `kept`, each by the name the client sent it as. */
export function refuseParams(
  wire: WireListQuery,
  kept: ReadonlySet<keyof WireListQuery>,
  refuse: (param: string) => void,
) {
  for (const key of Object.keys(wire) as (keyof WireListQuery)[]) {
    if (kept.has(key) || wire[key] === undefined) continue;
    if (key === 'paging') wire.paging?.forEach((_value, param) => refuse(param));
    else if (key === 'relationSelects') wire.relationSelects?.forEach((_value, path) => refuse(`select[${path}]`));
    else refuse(key === 'filterJson' ? 'filter' : key === 'search' ? 'search[query]' : key);
  }
}

/** findOne takes only `select`, `select[<relation>]` and `include`; anything else is an unsupported parameter. */
export async function resolveWireItemQuery(
  pairs: QueryPairs,
  config: ListQueryConfig,
  operation: string,
  context: SvcContext,
): Promise<ItemReadPlan> {
  const errors = new QueryErrors();
  return resolveItem(readListParams(pairs, errors), config, errors, { operation, context });
}

export async function resolveProgrammaticItemQuery(
  query: FindManyQuery,
  config: ListQueryConfig,
  operation: string,
  context: SvcContext,
): Promise<ItemReadPlan> {
  const errors = new QueryErrors();
  const wire: WireListQuery = {
    select: joined(query.select),
    include: joined(query.include),
  };
  for (const key of Object.keys(query))
    if (!['select', 'include'].includes(key)) (wire as Record<string, unknown>)[key] = true;
  return resolveItem(wire, config, errors, { operation, context });
}

async function resolveItem(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<ItemReadPlan> {
  const refuse = (param: string) =>
    errors.unsupportedParam(param, `${param} is taken by list reads only. Remove it from this single-row read.`);
  refuseParams(wire, ITEM_PARAMS, refuse);
  const shape = await resolveShape(wire, config, errors, args);
  errors.throwIfAny();
  return shape;
}

async function resolveQuery(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<ListReadPlan> {
  const clientFilter = resolveClientFilter(wire, config.filter, errors);
  const hasClientFilter = wire.filterJson !== undefined || wire.filter !== undefined;
  const requested =
    wire.sort === undefined ? config.sortDefault : parseSortKeys(splitSortParam(wire.sort), config.sort, errors);
  const forcedKeys = config.sortApply?.(args);
  const forced = forcedKeys ? serverSortKeys(forcedKeys, config) : [];
  const sort = finishSort(forced, requested, config.sort.primaryKeys);
  const page = planPage(wire, config, errors, sort);
  const view = readView(wire, config, errors);
  const search = readSearch(wire, config, errors);
  const { select, include } = await resolveShape(wire, config, errors, args);
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

/** Gives each relation-path sort key the related entity's own scope: a row outside it lends no value (sorts as null). */
async function scopeSortPaths(sort: readonly SortKey[], config: ListQueryConfig, args: ApplyArgs): Promise<SortKey[]> {
  return Promise.all(
    sort.map(async (key) => {
      const relation = relationOfPath(key.field, config.columns);
      if (relation === undefined) return key;
      const scope = await config.relationScope!(relation, args);
      return scope ? { ...key, scope } : key;
    }),
  );
}

/** Gives each relation-path condition the related entity's own scope, so a filter cannot probe rows outside it. */
async function scopeRelationPaths(node: FilterNode, config: ListQueryConfig, args: ApplyArgs): Promise<FilterNode> {
  switch (node.kind) {
    case 'condition': {
      const relation = relationOfPath(node.field, config.columns);
      if (relation === undefined) return node;
      const scope = await config.relationScope!(relation, args);
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

/** What each item serves: the projection and the included relations. */
async function resolveShape(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<ItemReadPlan> {
  const applyArgs = { ...args, entity: config.entity };
  const select = await resolveSelect(config.select, wire.select, errors, applyArgs, config.outputFields);
  return { select, include: await resolveIncludes(wire, config, errors, args) };
}

async function resolveIncludes(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<IncludeNode[]> {
  if (config.include) return config.include({ include: wire.include, selects: wire.relationSelects }, errors, args);
  if (wire.include !== undefined)
    errors.unsupportedParam('include', 'include is not taken by this resource. Remove it.');
  for (const path of wire.relationSelects?.keys() ?? []) {
    errors.add(
      `select[${path}]`,
      'not_included',
      `select[${path}] projects a relation this resource cannot include. Remove it.`,
    );
  }
  return [];
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

/** A programmatic list value (`['a', 'b']`) in its wire spelling (`a,b`). */
export function joined(value: readonly string[] | string | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : (value as string | undefined);
}

/**
 * The client's filter, from the JSON form (`filter=`), the bracket form (`filter[...]`) or both ANDed. Both at once
 * hold one `maxTerms` between them, as the bound parameters (and the per-event work of a subscription) it allows are
 * reckoned for one filter.
 */
export function resolveClientFilter(
  wire: Pick<WireListQuery, 'filter' | 'filterJson'>,
  allowlist: FilterAllowlist,
  errors: QueryErrors,
): FilterNode | undefined {
  const filter = andFilters(
    wire.filterJson === undefined ? undefined : resolveFilterExpression(wire.filterJson, allowlist, errors),
    wire.filter === undefined ? undefined : resolveFilterExpression(wire.filter, allowlist, errors),
  );
  if (wire.filterJson !== undefined && wire.filter !== undefined && filter) {
    const terms = conditionsIn(filter);
    const { maxTerms } = allowlist.limits;
    if (terms > maxTerms) {
      errors.add(
        'filter',
        'too_many_terms',
        `filter and filter[...] hold ${terms} conditions between them; the limit is ${maxTerms}. Use fewer conditions, or 'in' lists.`,
      );
    }
  }
  return filter;
}

/** The conditions of a filter, whatever groups hold them. */
function conditionsIn(node: FilterNode): number {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.reduce((sum, child) => sum + conditionsIn(child), 0);
    case 'not':
      return conditionsIn(node.child);
    default:
      return 1;
  }
}
