/** Projects a row to the fields an item response serves and to plain JSON values. */
import type { Row } from '../persistence/repository-adapter';

/** The readable fields of an entity, fixed at bootstrap. */
export interface OutputProjection {
  readonly fields: readonly string[];
}

/** A plain object with only the projected fields; Dates become ISO strings so the ETag hashes what is served. */
export function projectRow(row: Row, projection: OutputProjection): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of projection.fields) {
    if (!(field in row)) continue;
    const value = row[field];
    out[field] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}
