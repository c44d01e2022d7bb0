/**
 * The filter argument of a list tool as a typed object: one key per filterable field, each taking only the operators
 * allowed for it, plus `and`, `or` and `not` groups; values typed by column kind and bounded by the filter limits.
 */
import type { EntityDescription, FilterOperator } from '@svc/core';
import { scalarSchema, type JsonSchema } from './json-schema';

/** Where the recursive filter schema lives inside a tool's input schema. */
export const FILTER_REF = '#/$defs/filter';

type FilterField = EntityDescription['filter']['fields'][number];
type FilterLimits = EntityDescription['filter']['limits'];

const OPERATOR_HELP: Readonly<Record<FilterOperator, string>> = {
  eq: 'equals',
  ne: 'differs from',
  gt: 'greater than',
  gte: 'greater than or equal to',
  lt: 'less than',
  lte: 'less than or equal to',
  in: 'one of the values',
  notIn: 'none of the values',
  between: 'between the two values, inclusive',
  like: 'SQL LIKE pattern (% and _), case-sensitive',
  ilike: 'SQL LIKE pattern, case-insensitive',
  contains: 'contains the text, case-insensitive',
  startsWith: 'starts with the text, case-insensitive',
  endsWith: 'ends with the text, case-insensitive',
  isNull: 'true: the value is null',
  isNotNull: 'true: the value is not null',
};

/** The schema of one operator's value for a field. */
function operandSchema(
  field: FilterField,
  operator: FilterOperator,
  limits: FilterLimits,
  enumValues: readonly (string | number)[] | undefined,
): JsonSchema {
  const value = scalarSchema(field.kind, enumValues);
  const description = OPERATOR_HELP[operator];
  switch (operator) {
    case 'in':
    case 'notIn':
      return { type: 'array', items: value, minItems: 1, maxItems: limits.maxInValues, description };
    case 'between':
      return { type: 'array', items: value, minItems: 2, maxItems: 2, description };
    case 'like':
    case 'ilike':
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return { type: 'string', maxLength: limits.maxLikePatternLength, description };
    case 'isNull':
    case 'isNotNull':
      return { type: 'boolean', description };
    default:
      return { ...value, description };
  }
}

/** The `$defs.filter` schema of an entity, or undefined when nothing is filterable. */
export function filterSchema(description: EntityDescription): JsonSchema | undefined {
  const { fields, limits } = description.filter;
  if (fields.length === 0) return undefined;
  // An own column's enum values type its operands; a relation path (`author.country`) is typed by kind alone.
  const enums = new Map(description.fields.map((field) => [field.name, field.enumValues]));
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    properties[field.name] = {
      type: 'object',
      properties: Object.fromEntries(
        field.operators.map((operator) => [operator, operandSchema(field, operator, limits, enums.get(field.name))]),
      ),
      additionalProperties: false,
      minProperties: 1,
    };
  }
  properties['and'] = { type: 'array', items: { $ref: FILTER_REF }, description: 'every filter holds' };
  properties['or'] = { type: 'array', items: { $ref: FILTER_REF }, description: 'at least one filter holds' };
  properties['not'] = { $ref: FILTER_REF, description: 'the filter does not hold' };
  return {
    type: 'object',
    description:
      `Conditions on ${description.name} fields, ANDed: { "<field>": { "<operator>": value } }. ` +
      `At most ${limits.maxTerms} conditions and ${limits.maxDepth} levels of and/or/not.`,
    properties,
    additionalProperties: false,
  };
}
