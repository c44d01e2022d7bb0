/**
 * The filter of a list read as a typed JSON object, the same on every surface that takes one (an agent tool's
 * `filter` argument, the JSON `filter` parameter of the OpenAPI document): one key per filterable field, each taking
 * only the operators allowed for it, plus `and`, `or` and `not` groups; values typed by column kind and bounded by the
 * filter limits.
 */
import type { FilterOperator } from '../persistence/query-ast';
import type { EntityDescription } from './entity-description';
import { columnJsonSchema } from './json-schema';

type JsonSchema = Record<string, unknown>;

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
  const value = columnJsonSchema({ kind: field.kind, ...(enumValues ? { enumValues } : {}) }, 'input') as JsonSchema;
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

/**
 * The typed filter object of an entity, or undefined when nothing is filterable. `ref` is where the schema itself
 * will live (its `and`, `or` and `not` groups refer back to it): `#/$defs/filter` in an agent tool's input schema,
 * `#/components/schemas/BookFilter` in an OpenAPI document.
 */
export function filterJsonSchema(description: EntityDescription, ref: string): JsonSchema | undefined {
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
  properties['and'] = { type: 'array', items: { $ref: ref }, description: 'every filter holds' };
  properties['or'] = { type: 'array', items: { $ref: ref }, description: 'at least one filter holds' };
  properties['not'] = { $ref: ref, description: 'the filter does not hold' };
  return {
    type: 'object',
    description:
      `Conditions on ${description.name} fields, ANDed: { "<field>": { "<operator>": value } }. ` +
      `At most ${limits.maxTerms} conditions and ${limits.maxDepth} levels of and/or/not.`,
    properties,
    additionalProperties: false,
  };
}
