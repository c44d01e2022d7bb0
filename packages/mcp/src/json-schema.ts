/** The JSON Schema subset the tools' input and output schemas are written in, and the schema of each column kind. */
import type { ColumnKind } from '@svc/core';

/** A JSON Schema object (draft 2020-12), as the MCP tool definitions carry it. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * The schema of one value of a column kind. Big integers and decimals travel as strings (or numbers), so no
 * precision is lost on the way; `json` columns take any value.
 */
export function scalarSchema(kind: ColumnKind, enumValues?: readonly (string | number)[]): JsonSchema {
  if (enumValues && enumValues.length > 0) return { enum: [...enumValues] };
  switch (kind) {
    case 'integer':
      return { type: 'integer' };
    case 'number':
      return { type: 'number' };
    case 'bigint':
      return { type: ['string', 'integer'], pattern: '^-?[0-9]+$' };
    case 'decimal':
      return { type: ['string', 'number'], pattern: '^-?[0-9]+(\\.[0-9]+)?$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return {};
    case 'enum':
    case 'string':
      return { type: 'string' };
  }
}

/** `schema` that also admits null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  if (Array.isArray(schema['enum'])) return { ...schema, enum: [...(schema['enum'] as unknown[]), null] };
  const type = schema['type'];
  if (type === undefined) return { anyOf: [schema, { type: 'null' }] };
  return { ...schema, type: [...(Array.isArray(type) ? type : [type]), 'null'] };
}

/** What a response serves for each column kind: dates as their JSON strings, big numbers as strings or numbers. */
const SERVED: Readonly<Record<ColumnKind, JsonSchema>> = {
  string: { type: 'string' },
  uuid: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  bigint: { type: ['string', 'number'] },
  decimal: { type: ['string', 'number'] },
  boolean: { type: 'boolean' },
  date: { type: 'string' },
  datetime: { type: 'string' },
  json: {},
  enum: { type: ['string', 'number'] },
};

/** The schema of a value a response serves for a column. */
export function servedSchema(kind: ColumnKind, isNullable: boolean): JsonSchema {
  return isNullable ? nullable(SERVED[kind]) : SERVED[kind];
}
