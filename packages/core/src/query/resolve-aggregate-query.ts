/**
 * From a wire or programmatic aggregate query (`GET /aggregate`, `service.aggregate`) to what the adapter runs: the
 * groups, the functions, their order and page, and the list grammar's filter, search and row view under the same
 * allowlists, limits and caller scope as the entity's list.
 */
import type { AggregateQuery } from '../config/entity-config';
import type { SvcContext } from '../config/svc-context';
import { MEASURE_FUNCTIONS, type MeasureFunction, type ResolvedAggregate } from '../config/aggregate-config';
import { suggestion } from '../config/did-you-mean';
import { QueryErrors } from '../errors/query-errors';
import type { AggregateArgs, AggregateMeasure, AggregateSortKey, GroupKey } from '../persistence/repository-adapter';
import { readPageInteger } from '../pagination/pagination-strategy';
import type { ListQueryConfig } from './list-query-config';
import type { QueryPairs } from './parse-query-string';
import { programmaticMatch, readListParams, refuseParams, type WireListQuery } from './read-list-params';
import { resolveClientFilter } from './resolve-client-filter';
import { readSearch, readView } from './resolve-list-query';
import { scopedWhere } from './scope-relation-paths';
import { relationOfPath } from '../config/resolve-field-path';

/** A resolved aggregate read: the adapter's arguments, with the page always bounded (by `maxGroups` at most). */
export type AggregatePlan = Omit<AggregateArgs, 'count' | 'session' | 'limit' | 'offset'> & {
  readonly limit: number;
  readonly offset: number;
};

/** The aggregate's own parameters; the rest of the wire is the list grammar's. */
const OWN_PARAMS = ['groupBy', 'count', ...MEASURE_FUNCTIONS, 'sort', 'limit', 'offset'] as const;
type OwnParam = (typeof OWN_PARAMS)[number];
/** What of the list grammar an aggregate takes. */
const LIST_PARAMS: ReadonlySet<keyof WireListQuery> = new Set([
  'filter',
  'filterJson',
  'search',
  'withDeleted',
  'onlyDeleted',
]);

export interface AggregateQueryArgs {
  readonly list: ListQueryConfig;
  readonly aggregate: ResolvedAggregate;
  readonly operation: string;
  readonly context: SvcContext;
}

/** Resolves raw query-string pairs (`GET /aggregate?groupBy=published&sum=pages`). */
export function resolveWireAggregateQuery(pairs: QueryPairs, args: AggregateQueryArgs): Promise<AggregatePlan> {
  const errors = new QueryErrors();
  const own = new Map<OwnParam, string>();
  const rest: (readonly [string, string])[] = [];
  for (const pair of pairs) {
    const [key, value] = pair;
    if (!(OWN_PARAMS as readonly string[]).includes(key)) rest.push(pair);
    else if (own.has(key as OwnParam)) errors.add(key, 'repeated', `${key} is given more than once. Send it once.`);
    else own.set(key as OwnParam, value);
  }
  return resolve(own, readListParams(rest, errors), errors, args);
}

/** Resolves a programmatic query (`service.aggregate(query)`), under the same allowlists and limits. */
export function resolveProgrammaticAggregateQuery(
  query: AggregateQuery,
  args: AggregateQueryArgs,
): Promise<AggregatePlan> {
  const errors = new QueryErrors();
  const own = new Map<OwnParam, string>();
  const rest = new Set<string>(['filter', 'search', 'withDeleted', 'onlyDeleted']);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if ((OWN_PARAMS as readonly string[]).includes(key))
      own.set(key as OwnParam, Array.isArray(value) ? value.join(',') : String(value));
    else if (!rest.has(key)) errors.unsupportedParam(key, `${key} is not a key of an aggregate query.`);
  }
  return resolve(own, programmaticMatch(query), errors, args);
}

async function resolve(
  own: ReadonlyMap<OwnParam, string>,
  wire: WireListQuery,
  errors: QueryErrors,
  args: AggregateQueryArgs,
): Promise<AggregatePlan> {
  const { list, aggregate } = args;
  refuseParams(wire, LIST_PARAMS, (param) =>
    errors.unsupportedParam(
      param,
      `${param} is not taken by an aggregate, which takes groupBy, count, ${MEASURE_FUNCTIONS.join(', ')}, filter, search[query], sort, limit and offset.`,
    ),
  );
  const filter = resolveClientFilter(wire, list.filter, errors);
  const hasClientFilter = wire.filterJson !== undefined || wire.filter !== undefined;
  const view = readView(wire, list, errors);
  const search = readSearch(wire, list, errors);
  const fields = readGroupBy(own.get('groupBy'), aggregate, errors);
  readCount(own.get('count'), errors);
  const measures = readMeasures(own, aggregate, errors);
  const sort = readSort(own.get('sort'), fields, measures, aggregate, errors);
  const limit = Math.min(
    readPageInteger(own.get('limit'), 'limit', errors, 1) ?? aggregate.maxGroups,
    aggregate.maxGroups,
  );
  const offset = readPageInteger(own.get('offset'), 'offset', errors) ?? 0;
  errors.throwIfAny();
  const queryArgs = { operation: args.operation, context: args.context };
  const where = await scopedWhere(list, queryArgs, hasClientFilter ? filter : list.filterDefault, search);
  const groupBy = await Promise.all(
    fields.map(async (field): Promise<GroupKey> => {
      const relation = relationOfPath(field, list.columns);
      const scope =
        relation === undefined ? undefined : await list.relationScope?.(relation, queryArgs, field, 'groupBy');
      return scope ? { field, scope } : { field };
    }),
  );
  return { ...(where ? { where } : {}), view, groupBy, measures, sort, limit, offset };
}

function listOf(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((item) => item.trim());
}

function readGroupBy(value: string | undefined, aggregate: ResolvedAggregate, errors: QueryErrors): string[] {
  const out: string[] = [];
  for (const field of listOf(value)) {
    if (!aggregate.groupBy.has(field)) {
      const listed =
        aggregate.groupBy.size > 0
          ? suggestion(field, [...aggregate.groupBy.keys()])
          : ' This resource groups by no field.';
      errors.add('groupBy', 'field_not_groupable', `'${field}' is not a field this resource groups by.${listed}`);
    } else if (out.includes(field)) {
      errors.add('groupBy', 'repeated', `'${field}' is named twice in groupBy. Name each field once.`);
    } else {
      out.push(field);
    }
  }
  return out;
}

/** `count` is always answered; the parameter is taken bare or as `count=true`. */
function readCount(value: string | undefined, errors: QueryErrors): void {
  if (value !== undefined && value !== '' && value !== 'true')
    errors.add('count', 'invalid_value', 'count takes no value (or true): every group answers its count.');
}

function readMeasures(
  own: ReadonlyMap<OwnParam, string>,
  aggregate: ResolvedAggregate,
  errors: QueryErrors,
): AggregateMeasure[] {
  const out: AggregateMeasure[] = [];
  for (const fn of MEASURE_FUNCTIONS) {
    const seen = new Set<string>();
    for (const field of listOf(own.get(fn))) {
      if (!aggregate.functions.get(field)?.has(fn)) {
        const takers = [...aggregate.functions].filter(([, fns]) => fns.has(fn)).map(([name]) => name);
        const hint = takers.length > 0 ? suggestion(field, takers) : ` No field of this resource takes ${fn}.`;
        errors.add(fn, 'field_not_aggregatable', `'${field}' does not take ${fn}.${hint}`);
      } else if (seen.has(field)) {
        errors.add(fn, 'repeated', `'${field}' is named twice in ${fn}. Name each field once.`);
      } else {
        seen.add(field);
        out.push({ fn, field });
      }
    }
  }
  return out;
}

/**
 * `sort=-count,sum.pages,published`: the count, a function of a field (added to `measures` when the call did not ask
 * for it), or a field this call groups by.
 */
function readSort(
  value: string | undefined,
  groupBy: readonly string[],
  measures: AggregateMeasure[],
  aggregate: ResolvedAggregate,
  errors: QueryErrors,
): AggregateSortKey[] {
  const out: AggregateSortKey[] = [];
  const seen = new Set<string>();
  for (const key of listOf(value)) {
    const descending = key.startsWith('-');
    const name = descending || key.startsWith('+') ? key.slice(1) : key;
    const direction = descending ? 'desc' : 'asc';
    if (seen.has(name)) {
      errors.add('sort', 'repeated', `'${name}' is named twice in sort. Name each key once.`);
      continue;
    }
    seen.add(name);
    if (name === 'count') {
      out.push({ by: { kind: 'count' }, direction });
      continue;
    }
    if (groupBy.includes(name)) {
      out.push({ by: { kind: 'group', field: name }, direction });
      continue;
    }
    const dot = name.indexOf('.');
    const fn = name.slice(0, dot) as MeasureFunction;
    const field = name.slice(dot + 1);
    if (dot > 0 && aggregate.functions.get(field)?.has(fn)) {
      // A function the call orders by is computed (and answered) whether or not it asked for it.
      if (!measures.some((measure) => measure.fn === fn && measure.field === field)) measures.push({ fn, field });
      out.push({ by: { kind: 'measure', fn, field }, direction });
      continue;
    }
    const known = [
      'count',
      ...groupBy,
      ...[...aggregate.functions].flatMap(([f, fns]) => [...fns].map((x) => `${x}.${f}`)),
    ];
    const grouping = aggregate.groupBy.has(name) ? ` Add ${name} to groupBy to order by it.` : suggestion(name, known);
    errors.add(
      'sort',
      'field_not_sortable',
      `'${name}' is not a key of these groups: sort by count, a field this call groups by, or a function of a field (sum.pages).${grouping}`,
    );
  }
  return out;
}
