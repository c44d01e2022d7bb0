/** Builds the allowlists, defaults and limits of list reads from entity config, once, at bootstrap. */
import type { FilterConfig, SortConfig } from '../config/entity-config';
import { suggestion } from '../config/did-you-mean';
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { ResolvedSettings } from '../config/svc-settings';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { operatorsForKind, type FilterAllowlist, type FilterableField, type FilterLimits } from './filter-allowlist';
import type { ListQueryConfig } from './list-query-config';
import { FILTER_OPERATORS, type FilterOperator } from '../persistence/query-ast';
import { QueryErrors } from '../errors/query-errors';
import { resolveFilterExpression } from './resolve-filter-expression';
import { parseSortKeys, type SortAllowlist } from './resolve-sort';
import { QueryInvalidException } from '../errors/svc-exception';
import { UNCURSORABLE_KINDS } from './check-cursor-config';
import { BUILT_IN_STRATEGIES } from '../pagination/built-in-strategies';
import { OffsetPaginationStrategy } from '../pagination/offset-pagination-strategy';
import type { PaginationStrategy } from '../pagination/pagination-strategy';
import { comparableColumn, relationOfPath, resolveFieldPath, type RelatedMetadata } from '../config/resolve-field-path';
import type { SearchConfig } from './search-config';
import { buildSelectConfig, type SelectConfig } from './select-config';
import { buildFilterParams } from './filter-params';

const DEFAULT_LIMITS: FilterLimits = { maxDepth: 3, maxInValues: 100, maxLikePatternLength: 200, maxTerms: 100 };

/**
 * What every database can run: SQLite parses a chain of OR/AND terms as a tree at most 1,000 deep, and binds at most
 * 32,766 parameters per statement (PostgreSQL and MySQL 65,535). A filter's terms times its `in` list length bounds the
 * parameters it binds; the rest of the statement (scope, keyset, search) needs a margin.
 */
const LIMIT_CAPS: Partial<FilterLimits> = { maxTerms: 500, maxDepth: 20 };
const MAX_FILTER_PARAMETERS = 30_000;

interface BuildArgs {
  readonly entity: string;
  readonly metadata: EntityMetadata;
  readonly filter?: FilterConfig;
  readonly sort?: SortConfig;
  /** Describes related entities, for relation paths in filter.fields. */
  readonly related?: RelatedMetadata;
  /**
   * The readable fields. A column they close is left out of the default filter and sort allowlists (an explicit
   * listing can still name it), so no filter or order can serve as an oracle on a hidden value.
   */
  readonly select?: SelectConfig;
}

/**
 * The columns a default allowlist starts from: the readable ones when `select` is given, else every column; never a
 * column of an embedded class or a virtual one.
 */
function defaultColumns(metadata: EntityMetadata, select: SelectConfig | undefined) {
  const own = metadata.columns.filter(comparableColumn);
  return select ? own.filter((column) => select.fieldSet.has(column.property)) : own;
}

export function buildFilterAllowlist({ entity, metadata, filter, related, select }: BuildArgs): FilterAllowlist {
  const columns = new Map(metadata.columns.map((column) => [column.property, column]));
  const fields = new Map<string, FilterableField>();
  const spec = filter?.fields;
  const all = () =>
    defaultColumns(metadata, select).forEach((column) =>
      fields.set(column.property, { column, operators: new Set(operatorsForKind(column)) }),
    );
  const known = (name: string, path: string) => {
    const column = columns.get(name);
    if (!column)
      throw new ConfigurationException({
        entity,
        path,
        message: `'${name}' is not a column of ${entity}.${suggestion(name, columns.keys())}`,
      });
    return column;
  };
  if (spec === undefined) {
    all();
  } else if (Array.isArray(spec)) {
    for (const name of spec as string[]) {
      const column = resolveFieldPath(name, { entity, metadata, path: 'filter.fields', related });
      fields.set(name, { column, operators: new Set(operatorsForKind(column)) });
    }
  } else if (isPlainObject(spec) && Array.isArray((spec as { exclude?: unknown }).exclude)) {
    const excluded = new Set(
      (spec as { exclude: string[] }).exclude.map((name) => (known(name, 'filter.fields.exclude'), name)),
    );
    all();
    for (const name of excluded) fields.delete(name);
  } else if (isPlainObject(spec)) {
    // The map is an allowlist, as the array is: a column it does not name is not filterable.
    for (const [name, operators] of Object.entries(spec as Record<string, unknown>)) {
      const column = resolveFieldPath(name, { entity, metadata, path: `filter.fields.${name}`, related });
      fields.set(name, {
        column,
        operators: new Set(checkOperators(entity, name, operators, operatorsForKind(column))),
      });
    }
  } else {
    throw new ConfigurationException({
      entity,
      path: 'filter.fields',
      message: 'must be an array of fields, { exclude: [...] }, or a map from field to operators.',
    });
  }
  return { fields, limits: resolveLimits(entity, filter?.limits) };
}

function checkOperators(
  entity: string,
  field: string,
  operators: unknown,
  supported: readonly FilterOperator[],
): FilterOperator[] {
  const path = `filter.fields.${field}`;
  if (!Array.isArray(operators))
    throw new ConfigurationException({ entity, path, message: 'must be an array of operator tokens.' });
  for (const operator of operators) {
    if (!(FILTER_OPERATORS as readonly unknown[]).includes(operator)) {
      throw new ConfigurationException({
        entity,
        path,
        message: `'${String(operator)}' is not a filter operator.${suggestion(String(operator), FILTER_OPERATORS)}`,
      });
    }
    if (!supported.includes(operator)) {
      throw new ConfigurationException({
        entity,
        path,
        message: `'${String(operator)}' does not apply to the kind of '${field}'. Use one of ${supported.join(', ')}.`,
      });
    }
  }
  return operators as FilterOperator[];
}

function resolveLimits(entity: string, limits: FilterConfig['limits']): FilterLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (!(key in DEFAULT_LIMITS)) {
      throw new ConfigurationException({
        entity,
        path: `filter.limits.${key}`,
        message: `is not a known key.${suggestion(key, Object.keys(DEFAULT_LIMITS))}`,
      });
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new ConfigurationException({
        entity,
        path: `filter.limits.${key}`,
        message: 'must be a positive integer.',
      });
    }
    const cap = LIMIT_CAPS[key as keyof FilterLimits];
    if (cap !== undefined && value > cap)
      throw new ConfigurationException({
        entity,
        path: `filter.limits.${key}`,
        message: `is ${value}; the most every database can run is ${cap}.`,
      });
    out[key as keyof FilterLimits] = value;
  }
  if (out.maxTerms * out.maxInValues > MAX_FILTER_PARAMETERS)
    throw new ConfigurationException({
      entity,
      path: 'filter.limits',
      message: `allows ${out.maxTerms} terms of ${out.maxInValues} 'in' values: ${out.maxTerms * out.maxInValues} bound parameters, past the ${MAX_FILTER_PARAMETERS} every database can take. Lower maxTerms or maxInValues.`,
    });
  return out;
}

export function buildSortAllowlist({ entity, metadata, sort, select, related }: BuildArgs): SortAllowlist {
  const columns = metadata.columns.map((column) => column.property);
  const own = new Set(columns);
  const readable = defaultColumns(metadata, select).map((column) => column.property);
  const check = (name: string, path: string) => {
    if (relationOfPath(name, own) !== undefined && path === 'sort.fields')
      return checkSortPath(name, { entity, metadata, path, related });
    if (!columns.includes(name))
      throw new ConfigurationException({
        entity,
        path,
        message: `'${name}' is not a column of ${entity}.${suggestion(name, columns)}`,
      });
    // A listed column is checked as every list checks one (a virtual column is refused); an excluded one need only exist.
    if (path === 'sort.fields') resolveFieldPath(name, { entity, metadata, path, related });
    return name;
  };
  const spec = sort?.fields;
  let fields: string[];
  if (spec === undefined) fields = readable;
  else if (Array.isArray(spec)) fields = (spec as string[]).map((name) => check(name, 'sort.fields'));
  else if (isPlainObject(spec) && Array.isArray((spec as { exclude?: unknown }).exclude)) {
    const excluded = new Set((spec as { exclude: string[] }).exclude.map((name) => check(name, 'sort.fields.exclude')));
    fields = readable.filter((name) => !excluded.has(name));
  } else
    throw new ConfigurationException({
      entity,
      path: 'sort.fields',
      message: 'must be an array of fields or { exclude: [...] }.',
    });
  return { fields: new Set(fields), primaryKeys: metadata.primaryKeys };
}

/**
 * A relation path on `sort.fields` orders by one value per row: it must cross one owning to-one relation (many-to-one,
 * or the owning side of a one-to-one) on a single join column, to a plain scalar column of the target.
 */
function checkSortPath(
  name: string,
  args: { entity: string; metadata: EntityMetadata; path: string; related?: RelatedMetadata },
): string {
  const column = resolveFieldPath(name, args);
  const relation = args.metadata.relations.find((candidate) => candidate.property === name.split('.')[0]);
  const toOne = relation?.owning && (relation.kind === 'many-to-one' || relation.kind === 'one-to-one');
  const fail = (why: string) => {
    throw new ConfigurationException({ entity: args.entity, path: args.path, message: `'${name}' ${why}` });
  };
  if (!toOne || relation!.joinColumns.length !== 1)
    fail(
      `crosses ${relation?.kind ?? 'a'} relation '${relation?.property}'; a sort path must cross an owning to-one relation with a single join column, which gives each row one value.`,
    );
  if (column.kind === 'json') fail('is a json column, which has no order.');
  return name;
}

/** The whole list-read config of one operation. */
export function buildListQueryConfig(
  args: BuildArgs & {
    settings: ResolvedSettings;
    softDelete: boolean;
    select?: SelectConfig;
    search?: SearchConfig;
    include?: ListQueryConfig['include'];
    outputFields?: readonly string[];
    relationScope?: ListQueryConfig['relationScope'];
    strategies?: ReadonlyMap<string, PaginationStrategy>;
    /** What `filter.apply` may compare, when the entity's is wider than its own columns (a child collection's link). */
    serverFilter?: FilterAllowlist;
  },
): ListQueryConfig {
  const select = args.select ?? buildSelectConfig(args.entity, args.metadata, undefined);
  const filter = buildFilterAllowlist({ ...args, select });
  const sort = buildSortAllowlist({ ...args, select });
  const strategy =
    (args.strategies ?? BUILT_IN_STRATEGIES).get(args.settings.pagination.strategy) ?? OffsetPaginationStrategy;
  const filterParams = buildFilterParams(args.entity, args.filter?.params, filter, strategy.params);
  const columns = new Map(args.metadata.columns.map((column) => [column.property, column]));
  const refuseCursorKey = (field: string) => {
    if (relationOfPath(field, columns))
      return 'it is a relation path, whose value a cursor cannot carry (use offset or page to sort by it)';
    const column = columns.get(field);
    if (!column || column.kind === 'json') return 'it is not a plain scalar column';
    if (UNCURSORABLE_KINDS.has(column.kind))
      return `it is a ${column.kind} column, whose values a cursor cannot carry exactly (use offset or page to sort by it)`;
    if (!sort.fields.has(field) && !sort.primaryKeys.includes(field)) return 'it is not on sort.fields';
    if (!filter.fields.has(field)) return 'it is not on filter.fields';
    if (!select.fieldSet.has(field)) return 'it is not on select.fields';
    return undefined;
  };
  return {
    entity: args.entity,
    columns,
    refuseCursorKey,
    filter,
    serverFilter:
      args.serverFilter ??
      buildFilterAllowlist({
        entity: args.entity,
        metadata: args.metadata,
        filter: { limits: args.filter?.limits },
      }),
    filterDefault:
      args.filter?.default === undefined ? undefined : bootstrapFilter(args.entity, args.filter.default, filter),
    ...(filterParams ? { filterParams } : {}),
    filterApply: checkFunction(args.entity, 'filter.apply', args.filter?.apply),
    sort,
    sortDefault: args.sort?.default === undefined ? [] : bootstrapSort(args.entity, args.sort.default, sort),
    sortApply: checkFunction(args.entity, 'sort.apply', args.sort?.apply),
    select,
    search: args.search,
    include: args.include,
    outputFields: args.outputFields,
    relationScope: args.relationScope,
    softDelete: args.softDelete,
    pagination: {
      strategy,
      defaultLimit: args.settings.pagination.defaultLimit,
      maxLimit: args.settings.pagination.maxLimit,
      count: args.settings.pagination.count,
      sinceField: args.settings.pagination.since.field,
    },
  };
}

function bootstrapFilter(entity: string, expression: unknown, allowlist: FilterAllowlist) {
  return atBootstrap(entity, 'filter.default', () => {
    const errors = new QueryErrors();
    const node = resolveFilterExpression(expression, allowlist, errors, 'filter.default');
    errors.throwIfAny();
    return node;
  });
}

function bootstrapSort(entity: string, keys: unknown, allowlist: SortAllowlist) {
  if (!Array.isArray(keys))
    throw new ConfigurationException({
      entity,
      path: 'sort.default',
      message: "must be an array of field names, '-' prefixed for descending.",
    });
  return atBootstrap(entity, 'sort.default', () => {
    const errors = new QueryErrors();
    const out = parseSortKeys(keys as string[], allowlist, errors, 'sort.default');
    errors.throwIfAny();
    return out;
  });
}

function atBootstrap<T>(entity: string, path: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof QueryInvalidException || (error as { code?: string }).code === 'SVC_QUERY_UNSUPPORTED_PARAM') {
      const detail = (error as QueryInvalidException).errors?.map((item) => item.detail).join(' ') ?? String(error);
      throw new ConfigurationException({ entity, path, message: detail });
    }
    throw error;
  }
}

function checkFunction<T>(entity: string, path: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function')
    throw new ConfigurationException({ entity, path, message: 'must be a function (args) => ...' });
  return value;
}
