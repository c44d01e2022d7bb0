/** The JSON Schema a write slot documents when its schema class or Standard Schema validator states one. */
import type { ColumnKind } from '../persistence/entity-metadata';

type JsonObject = Readonly<Record<string, unknown>>;

/** A column the slot writes, by the name its body sends it under. */
export interface SlotColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly nullable: boolean;
}

/**
 * The validator's schema as the slot takes it: a body passes the validator and then each column's own check, so a
 * property naming a `date` column is a `YYYY-MM-DD` date (`format: date`) whatever date string the validator admits
 * (`@IsDateString()` admits a date-time too, which the column refuses). It admits null where both the validator's
 * schema and the column do; its other keywords are kept.
 */
export function slotJsonSchema(schema: JsonObject, columns: readonly SlotColumn[]): JsonObject {
  const properties = schema['properties'];
  if (!isObject(properties)) return schema;
  let narrowed: Record<string, unknown> | undefined;
  for (const column of columns) {
    const property = properties[column.name];
    if (column.kind !== 'date' || !isObject(property)) continue;
    const { type: _type, format: _format, oneOf, anyOf, ...kept } = property;
    narrowed ??= { ...properties };
    narrowed[column.name] = {
      ...kept,
      ...(dateBranchesOnly(oneOf) ? {} : { oneOf }),
      ...(dateBranchesOnly(anyOf) ? {} : { anyOf }),
      type: column.nullable && admitsNull(property) ? ['string', 'null'] : 'string',
      format: 'date',
    };
  }
  return narrowed ? { ...schema, properties: narrowed } : schema;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The schema admits null: its type list names it, or one of its alternatives does. */
function admitsNull(schema: Record<string, unknown>): boolean {
  const type = schema['type'];
  if (Array.isArray(type) ? type.includes('null') : type === 'null') return true;
  return [schema['oneOf'], schema['anyOf']].some(
    (branches) => Array.isArray(branches) && branches.some((branch) => isObject(branch) && admitsNull(branch)),
  );
}

/** Absent, or alternatives that are each a date or date-time string or null: what the column's own schema states. */
function dateBranchesOnly(branches: unknown): boolean {
  if (branches === undefined) return true;
  return (
    Array.isArray(branches) &&
    branches.every(
      (branch) =>
        isObject(branch) &&
        (branch['format'] === 'date' || branch['format'] === 'date-time' || branch['type'] === 'null'),
    )
  );
}
