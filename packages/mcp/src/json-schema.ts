/** The JSON Schema subset the tools' input and output schemas are written in, and the schema of each column kind. */
import { admitNull, columnJsonSchema, type ColumnSchemaSource } from '@svc/core/spi';

/** A JSON Schema object (draft 2020-12), as the MCP tool definitions carry it. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** The schema of one value a tool takes for a column kind (bounds and formats checked, as REST checks them). */
export function scalarSchema(field: ColumnSchemaSource): JsonSchema {
  return columnJsonSchema(field, 'input');
}

/** `schema` that also admits null. */
export function nullable(schema: JsonSchema): JsonSchema {
  return admitNull(schema);
}

/** The schema of a value a response serves for a column. */
export function servedSchema(field: ColumnSchemaSource): JsonSchema {
  return columnJsonSchema(field, 'output');
}
