/**
 * JSON Schema (draft 2020-12, which OpenAPI 3.1 embeds) of what Svc takes and serves, per column kind, and of its
 * problem object: one account that the OpenAPI document and the agent tools both use, so they agree with each other.
 * A value that may be null has `'null'` in its type list (never OpenAPI 3.0's `nullable`).
 */
import type { ColumnKind, ColumnList } from '../persistence/entity-metadata';
import type { EntityDescription } from './entity-description';

/** A JSON Schema object. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Whether a schema describes what a client sends (bounds and formats are checked) or what the server answers. */
export type SchemaDirection = 'input' | 'output';

export interface ColumnSchemaSource {
  readonly kind: ColumnKind;
  readonly nullable?: boolean;
  readonly enumValues?: readonly (string | number)[];
  readonly length?: number;
  /** A list column's items (its kind is `json`). */
  readonly list?: ColumnList;
}

/** The schema of one column value by its kind; a nullable column admits null. */
export function columnJsonSchema(field: ColumnSchemaSource, direction: SchemaDirection): JsonSchema {
  const schema = kindSchema(field, direction);
  return field.nullable ? admitNull(schema) : schema;
}

/**
 * The rules of a write slot's references, as `allOf` members: a to-one reference and its mapped foreign-key column are
 * never sent together, and each pair the row needs (`requiredOneOf`: create, and the replace of update) is sent as
 * one of the two. Empty when the slot has neither.
 */
export function referenceRulesJsonSchema(
  description: EntityDescription,
  slot: keyof EntityDescription['write'],
): JsonSchema[] {
  const write = description.write[slot];
  const inSlot = new Set(write.fields.map((field) => field.name));
  const rules: JsonSchema[] = [];
  for (const field of description.fields) {
    if (field.foreignKeyOf !== undefined && inSlot.has(field.name) && inSlot.has(field.foreignKeyOf)) {
      rules.push({ not: { required: [field.foreignKeyOf, field.name] } });
    }
  }
  for (const pair of write.requiredOneOf) rules.push({ anyOf: pair.map((name) => ({ required: [name] })) });
  return rules;
}

/** The same schema, also admitting null (`'null'` in the type list, and in `enum` when there is one). */
export function admitNull(schema: JsonSchema): JsonSchema {
  // No type: any value, null included, is admitted already.
  if (schema['type'] === undefined) return schema;
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string];
  return {
    ...schema,
    type: types.includes('null') ? types : [...types, 'null'],
    ...(Array.isArray(schema['enum']) && !(schema['enum'] as unknown[]).includes(null)
      ? { enum: [...(schema['enum'] as unknown[]), null] }
      : {}),
  };
}

function kindSchema(field: ColumnSchemaSource, direction: SchemaDirection): JsonSchema {
  const input = direction === 'input';
  switch (field.kind) {
    case 'string':
      return input && field.length !== undefined ? { type: 'string', maxLength: field.length } : { type: 'string' };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'integer':
      return { type: 'integer', ...(input ? { minimum: -2147483648, maximum: 2147483647 } : {}) };
    case 'number':
      return { type: 'number' };
    // Drivers answer 64-bit integers and decimals as strings where JavaScript numbers would lose precision.
    case 'bigint':
      return { type: ['integer', 'string'], pattern: '^-?\\d{1,19}$' };
    case 'decimal':
      return { type: ['number', 'string'], pattern: '^-?\\d+(\\.\\d+)?$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return field.list
        ? { type: 'array', items: kindSchema({ ...field, kind: field.list.of, list: undefined }, direction) }
        : {};
    case 'enum': {
      const values = [...(field.enumValues ?? [])];
      if (values.length === 0) return { type: ['string', 'number'] };
      const types = [...new Set(values.map((value) => (typeof value === 'number' ? 'number' : 'string')))];
      return { type: types.length === 1 ? types[0] : types, enum: values };
    }
  }
}

/** The problem details object (RFC 9457) that every error answers with, over HTTP and in a tool's result. */
export const PROBLEM_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', description: 'A stable URI per code.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'What went wrong and what to do next.' },
    instance: { type: 'string' },
    code: { type: 'string', pattern: '^SVC_', description: 'The SVC_* code.' },
    entity: { type: 'string', description: 'The entity the error is about, where Svc knows it.' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          param: { type: 'string' },
          field: { type: 'string' },
          code: { type: 'string' },
          detail: { type: 'string' },
        },
        required: ['code', 'detail'],
      },
    },
    requestId: { type: 'string' },
    params: { type: 'object' },
    internals: {},
  },
  required: ['type', 'title', 'status', 'detail', 'code'],
};
