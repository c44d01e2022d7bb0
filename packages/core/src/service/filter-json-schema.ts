/**
 * The filter of a list read as a typed JSON object, the same on every surface that takes one (an agent tool's
 * `filter` argument, the JSON `filter` parameter of the OpenAPI document): one key per filterable field, each taking
 * only the operators allowed for it, plus `and`, `or` and `not` groups; values typed by column kind and bounded by the
 * filter limits.
 */
import type { EntityDescription, OperandDescription } from './entity-description';
import { columnJsonSchema } from './json-schema';

type JsonSchema = Record<string, unknown>;

type FilterField = EntityDescription['filter']['fields'][number];

/** The schema of one operator's value for a field, by the operand's shape. */
function operandSchema(
  field: FilterField,
  operand: OperandDescription,
  enumValues: readonly (string | number)[] | undefined,
): JsonSchema {
  const value = columnJsonSchema({ kind: field.kind, ...(enumValues ? { enumValues } : {}) }, 'input') as JsonSchema;
  const description = operand.help;
  switch (operand.shape) {
    case 'list':
    case 'pair':
      return { type: 'array', items: value, minItems: operand.minItems, maxItems: operand.maxItems, description };
    case 'pattern':
      return { type: 'string', maxLength: operand.maxLength, description };
    case 'flag':
      return { type: 'boolean', description };
    case 'value':
      return { ...value, description };
  }
}

/**
 * The typed filter object of an entity, or undefined when nothing is filterable. `ref` is where the schema itself
 * will live (its `and`, `or` and `not` groups refer back to it): `#/$defs/filter` in an agent tool's input schema,
 * `#/components/schemas/BookFilter` in an OpenAPI document.
 */
export function filterJsonSchema(description: EntityDescription, ref: string): JsonSchema | undefined {
  const { fields, limits, operands } = description.filter;
  if (fields.length === 0) return undefined;
  // An own column's enum values type its operands; a relation path (`author.country`) is typed by kind alone.
  const enums = new Map(description.fields.map((field) => [field.name, field.enumValues]));
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    properties[field.name] = {
      type: 'object',
      properties: Object.fromEntries(
        field.operators.flatMap((operator) => {
          const operand = operands[operator];
          return operand ? [[operator, operandSchema(field, operand, enums.get(field.name))]] : [];
        }),
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
