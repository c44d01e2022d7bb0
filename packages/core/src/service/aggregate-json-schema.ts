/**
 * An aggregate's query and answer as JSON Schema, the same on every surface that describes them (the agent tool's
 * arguments and result, the OpenAPI document's parameters and response): the functions each field takes, the
 * groupable fields and the order keys, all closed lists read off the entity's description.
 */
import { MEASURE_FUNCTIONS, type MeasureFunction } from '../config/aggregate-config';
import type { ColumnKind } from '../persistence/entity-metadata';
import type { AggregateDescription } from './entity-description';
import { admitNull, columnJsonSchema, type JsonSchema } from './json-schema';

/** The fields that take `fn`. */
export function fieldsTaking(aggregate: AggregateDescription, fn: MeasureFunction): string[] {
  return aggregate.fields.filter((field) => field.functions.includes(fn)).map((field) => field.field);
}

/**
 * The keys a call may order its groups by (each also with a leading `-`): `count`, each function of each field that
 * takes it (`sum.pages`, computed and answered when the call does not ask for it), and, with `groups`, the groupable
 * fields, which order only a call that groups by them.
 */
export function aggregateSortKeys(aggregate: AggregateDescription, options: { groups: boolean }): string[] {
  const keys = ['count', ...(options.groups ? aggregate.groupBy.map((group) => group.field) : [])];
  for (const fn of MEASURE_FUNCTIONS) for (const field of fieldsTaking(aggregate, fn)) keys.push(`${fn}.${field}`);
  return keys.flatMap((key) => [key, `-${key}`]);
}

/** The value one function answers for a column of this kind (null where the group has no value). */
export function measureValueSchema(fn: MeasureFunction, kind: ColumnKind): JsonSchema {
  if (fn === 'countDistinct') return { type: 'integer', minimum: 0 };
  if (fn === 'avg') return admitNull({ type: 'number' });
  if (fn === 'sum') {
    if (kind === 'decimal') return admitNull({ type: 'string', description: 'An exact decimal.' });
    if (kind === 'bigint') return admitNull({ type: 'string', description: 'An exact integer.' });
    if (kind === 'integer') return admitNull({ type: ['integer', 'string'], description: 'A string past 2^53.' });
    return admitNull({ type: 'number' });
  }
  return columnJsonSchema({ kind, nullable: true }, 'output');
}

/** `{ items: [{ group, count, sum: {...}, ... }], limit, offset, total }`. */
export function aggregateResultJsonSchema(aggregate: AggregateDescription): JsonSchema {
  const group: JsonSchema = {
    type: 'object',
    description: 'The values this group shares, by groupBy field.',
    properties: Object.fromEntries(
      aggregate.groupBy.map(({ field, kind }) => [field, columnJsonSchema({ kind, nullable: true }, 'output')]),
    ),
    additionalProperties: false,
  };
  const item: Record<string, JsonSchema> = {
    group,
    count: { type: 'integer', minimum: 0, description: 'The rows in the group.' },
  };
  for (const fn of MEASURE_FUNCTIONS) {
    const fields = aggregate.fields.filter((field) => field.functions.includes(fn));
    if (fields.length === 0) continue;
    item[fn] = {
      type: 'object',
      description: `By field: the ${fn} of the fields asked for with ${fn}=.`,
      properties: Object.fromEntries(fields.map(({ field, kind }) => [field, measureValueSchema(fn, kind)])),
      additionalProperties: false,
    };
  }
  return {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: { type: 'object', properties: item, required: ['group', 'count'], additionalProperties: false },
      },
      limit: { type: 'integer', minimum: 1 },
      offset: { type: 'integer', minimum: 0 },
      total: { type: ['integer', 'null'], minimum: 0, description: 'How many groups the whole match set forms.' },
    },
    required: ['items', 'limit', 'offset', 'total'],
  };
}

/** The aggregate's own arguments as a programmatic query takes them (lists of names), without filter and search. */
export function aggregateArgumentsJsonSchema(aggregate: AggregateDescription): Record<string, JsonSchema> {
  const names = (values: readonly string[], description: string): JsonSchema => ({
    type: 'array',
    items: { type: 'string', enum: [...values] },
    uniqueItems: true,
    description,
  });
  const out: Record<string, JsonSchema> = {};
  if (aggregate.groupBy.length > 0) {
    const fields = aggregate.groupBy.map((group) => group.field);
    out['groupBy'] = names(fields, 'Form one group per distinct combination of these fields.');
  }
  for (const fn of MEASURE_FUNCTIONS) {
    const fields = fieldsTaking(aggregate, fn);
    if (fields.length > 0) out[fn] = names(fields, `Compute ${fn} of these fields in each group.`);
  }
  const always = aggregateSortKeys(aggregate, { groups: false });
  const grouped = aggregateSortKeys(aggregate, { groups: true }).filter((key) => !always.includes(key));
  out['sort'] = {
    type: 'array',
    // The keys every call takes first; a groupable field orders only a call that groups by it.
    items:
      grouped.length > 0
        ? {
            type: 'string',
            anyOf: [{ enum: always }, { enum: grouped, description: 'A field this call groups by.' }],
          }
        : { type: 'string', enum: always },
    description:
      'Order the groups by count or a function of a field (sum.pages, answered too); a field this call groups by may be named as well. `-` descends.',
  };
  out['limit'] = { type: 'integer', minimum: 1, maximum: aggregate.maxGroups, default: aggregate.maxGroups };
  out['offset'] = { type: 'integer', minimum: 0 };
  return out;
}
