/**
 * `aggregate`: which functions each field takes, which fields group, and how many groups a call answers, checked
 * once at bootstrap, naming the path of every misconfiguration.
 */
import { ConfigurationException } from '../errors/configuration-exception';
import type { ColumnKind, ColumnMetadata, EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import type { AggregateMeasure } from '../persistence/repository-adapter';
import { suggestion } from './did-you-mean';
import { comparableColumn } from './resolve-field-path';
import type { AggregateConfig } from './entity-config';
import { isPlainObject } from './validate-settings';

/** A function over one column (`count`, over rows, is always served). */
export type MeasureFunction = AggregateMeasure['fn'];

export const MEASURE_FUNCTIONS: readonly MeasureFunction[] = ['countDistinct', 'sum', 'avg', 'min', 'max'];
/** The largest `limits.maxGroups` a config may set. */
export const MAX_GROUPS_CEILING = 10_000;
const DEFAULT_MAX_GROUPS = 1000;
const KEYS = ['fields', 'groupBy', 'limits'];

const NUMERIC: ReadonlySet<ColumnKind> = new Set(['integer', 'number', 'bigint', 'decimal']);
const DATES: ReadonlySet<ColumnKind> = new Set(['date', 'datetime']);
/** What each function reads: sums and averages need numbers; order needs something comparable. */
const TAKES: Readonly<Record<MeasureFunction, (kind: ColumnKind) => boolean>> = {
  countDistinct: (kind) => kind !== 'json',
  sum: (kind) => NUMERIC.has(kind),
  avg: (kind) => NUMERIC.has(kind),
  min: (kind) => kind !== 'json' && kind !== 'boolean',
  max: (kind) => kind !== 'json' && kind !== 'boolean',
};

/** A field a call may group by. */
export interface GroupField {
  /** The owning to-one relation a path (`author.country`) crosses. */
  readonly relation?: RelationMetadata;
  readonly kind: ColumnKind;
}

export interface ResolvedAggregate {
  /** The functions each own column takes, by property. */
  readonly functions: ReadonlyMap<string, ReadonlySet<MeasureFunction>>;
  /** The groupable fields, in config order. */
  readonly groupBy: ReadonlyMap<string, GroupField>;
  readonly maxGroups: number;
  /** The relations the group paths cross: a write to their targets makes a cached aggregate stale. */
  readonly relations: readonly RelationMetadata[];
}

export interface AggregateConfigArgs {
  readonly entity: string;
  readonly metadata: EntityMetadata;
  /** The fields responses serve (`select.fields`): the defaults stay inside them. */
  readonly served: ReadonlySet<string>;
  /** A related entity's metadata, for group paths. */
  readonly related?: (target: Function) => EntityMetadata;
}

/** The resolved `aggregate` block, or undefined when the entity serves no aggregate. */
export function resolveAggregateConfig(
  args: AggregateConfigArgs,
  config: AggregateConfig | undefined,
): ResolvedAggregate | undefined {
  if (config === undefined) return undefined;
  const fail = (path: string, message: string) => new ConfigurationException({ entity: args.entity, path, message });
  if (!isPlainObject(config)) throw fail('aggregate', 'must be an object { fields?, groupBy?, limits? }.');
  for (const key of Object.keys(config)) {
    if (!KEYS.includes(key)) throw fail(`aggregate.${key}`, `is not an aggregate key.${suggestion(key, KEYS)}`);
  }
  const columns = new Map(args.metadata.columns.map((column) => [column.property, column]));
  const functions =
    config.fields === undefined ? defaultFunctions(args, columns) : listedFunctions(args, columns, config.fields);
  const groupBy = resolveGroupBy(args, columns, config.groupBy);
  const relations = [...new Set([...groupBy.values()].flatMap((field) => (field.relation ? [field.relation] : [])))];
  return { functions, groupBy, maxGroups: maxGroupsOf(args.entity, config.limits), relations };
}

/**
 * Sums, averages, minimums and maximums on served numeric columns; minimums and maximums on served dates; none on keys
 * (primary or foreign) or the soft-delete marker.
 */
function defaultFunctions(args: AggregateConfigArgs, columns: ReadonlyMap<string, ColumnMetadata>) {
  const out = new Map<string, ReadonlySet<MeasureFunction>>();
  for (const column of columns.values()) {
    // Keys are identifiers, not quantities: a sum of ids is noise. Listing one in `fields` still serves it.
    const key = column.primary || column.foreignKeyOf !== undefined;
    if (!args.served.has(column.property) || column.deleteMarker || key || !comparableColumn(column)) continue;
    if (NUMERIC.has(column.kind)) out.set(column.property, new Set<MeasureFunction>(['sum', 'avg', 'min', 'max']));
    else if (DATES.has(column.kind)) out.set(column.property, new Set<MeasureFunction>(['min', 'max']));
  }
  return out;
}

function listedFunctions(
  args: AggregateConfigArgs,
  columns: ReadonlyMap<string, ColumnMetadata>,
  fields: unknown,
): Map<string, ReadonlySet<MeasureFunction>> {
  const fail = (path: string, message: string) => new ConfigurationException({ entity: args.entity, path, message });
  if (!isPlainObject(fields))
    throw fail('aggregate.fields', "must map fields to their functions, for example { pages: ['sum', 'avg'] }.");
  const out = new Map<string, ReadonlySet<MeasureFunction>>();
  for (const [field, listed] of Object.entries(fields)) {
    const path = `aggregate.fields.${field}`;
    const column = columns.get(field);
    if (!column) {
      throw fail(
        path,
        `names '${field}', which is not a column of ${args.entity}.${suggestion(field, [...columns.keys()])}`,
      );
    }
    if (column.virtual) throw fail(path, `names '${field}', a virtual column, which the database cannot aggregate.`);
    if (!Array.isArray(listed) || listed.length === 0)
      throw fail(path, `must be a non-empty list among ${MEASURE_FUNCTIONS.join(', ')}.`);
    for (const fn of listed) {
      if (!MEASURE_FUNCTIONS.includes(fn as MeasureFunction)) {
        const hint =
          fn === 'count' ? ' count counts rows and is always served.' : suggestion(String(fn), MEASURE_FUNCTIONS);
        throw fail(path, `names '${String(fn)}', which is not an aggregate function of a field.${hint}`);
      }
      if (!TAKES[fn as MeasureFunction](column.kind))
        throw fail(path, `names '${fn}', which a ${column.kind} column does not take.`);
    }
    out.set(field, new Set(listed as MeasureFunction[]));
  }
  return out;
}

function resolveGroupBy(
  args: AggregateConfigArgs,
  columns: ReadonlyMap<string, ColumnMetadata>,
  listed: unknown,
): Map<string, GroupField> {
  const fail = (message: string) =>
    new ConfigurationException({ entity: args.entity, path: 'aggregate.groupBy', message });
  const out = new Map<string, GroupField>();
  if (listed === undefined) return out;
  if (!Array.isArray(listed) || !listed.every((field) => typeof field === 'string'))
    throw fail("must be a list of fields, for example ['published', 'author.country'].");
  for (const field of listed as string[]) {
    const dot = columns.has(field) ? -1 : field.indexOf('.');
    if (dot === -1) {
      const column = columns.get(field);
      if (!column)
        throw fail(
          `names '${field}', which is not a column of ${args.entity}.${suggestion(field, [...columns.keys()])}`,
        );
      if (column.kind === 'json') throw fail(`names '${field}', a json column, which cannot group.`);
      if (column.virtual) throw fail(`names '${field}', a virtual column, which the database cannot group by.`);
      out.set(field, { kind: column.kind });
      continue;
    }
    const name = field.slice(0, dot);
    const relation = args.metadata.relations.find((candidate) => candidate.property === name);
    const toOne =
      relation &&
      relation.owning &&
      (relation.kind === 'many-to-one' || relation.kind === 'one-to-one') &&
      relation.joinColumns.length === 1;
    if (!toOne) {
      const names = args.metadata.relations.map((candidate) => candidate.property);
      throw fail(
        `names '${field}', which does not cross an owning to-one relation of ${args.entity} (one level deep).${relation ? '' : suggestion(name, names)}`,
      );
    }
    const target = args.related?.(relation.target);
    const column = target?.columns.find((candidate) => candidate.property === field.slice(dot + 1));
    if (!target || !column || column.kind === 'json' || field.slice(dot + 1).includes('.')) {
      const names = target?.columns.map((candidate) => candidate.property) ?? [];
      throw fail(
        `names '${field}', which is not a column of ${relation.targetName}.${suggestion(field.slice(dot + 1), names)}`,
      );
    }
    if (column.virtual) throw fail(`names '${field}', a virtual column, which the database cannot group by.`);
    out.set(field, { relation, kind: column.kind });
  }
  return out;
}

function maxGroupsOf(entity: string, limits: unknown): number {
  const fail = (path: string, message: string) => new ConfigurationException({ entity, path, message });
  if (limits === undefined) return DEFAULT_MAX_GROUPS;
  if (!isPlainObject(limits)) throw fail('aggregate.limits', 'must be an object { maxGroups? }.');
  for (const key of Object.keys(limits)) {
    if (key !== 'maxGroups')
      throw fail(`aggregate.limits.${key}`, `is not an aggregate limit.${suggestion(key, ['maxGroups'])}`);
  }
  const value = limits['maxGroups'];
  if (value === undefined) return DEFAULT_MAX_GROUPS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_GROUPS_CEILING) {
    throw fail(
      'aggregate.limits.maxGroups',
      `must be an integer from 1 to ${MAX_GROUPS_CEILING}, not ${JSON.stringify(value)}.`,
    );
  }
  return value;
}
