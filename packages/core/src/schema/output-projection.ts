/** Projects a row to the fields an item response serves and to plain JSON values. */
import type { Row } from '../persistence/repository-adapter';
import { isoText } from './date-values';

/** The readable fields of an entity, fixed at bootstrap. */
export interface OutputProjection {
  readonly fields: readonly string[];
}

/** A plain object with only the projected fields; Dates become ISO strings so the ETag hashes what is served. */
export function projectRow(row: Row, projection: OutputProjection): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of projection.fields) {
    const value = row[field];
    if (value === undefined && !(field in row)) continue;
    out[field] = value instanceof Date ? isoText(value) : value;
  }
  return out;
}
