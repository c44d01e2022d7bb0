/** Coerces one filter value to its column's kind, or explains why it cannot be. */
import type { ColumnMetadata } from '../persistence/entity-metadata';
import { DATE_RANGE_HINT, readDate, readDatetime } from './date-values';

export type Coerced = { ok: true; value: unknown } | { ok: false; reason: string };

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^-?\d{1,30}(\.\d{1,30})?$/;

/** Coerces a wire string or a programmatic value to the column's kind. */
export function coerceFilterValue(column: ColumnMetadata, raw: unknown): Coerced {
  if (raw === null || raw === undefined) return fail('a value is required');
  if (typeof raw === 'object') return fail('must be a single value, not an object or a list');
  switch (column.kind) {
    case 'string':
      return coerceString(column, raw);
    case 'uuid':
      return typeof raw === 'string' && UUID.test(raw) ? ok(raw) : fail('must be a UUID');
    case 'enum':
      return coerceEnum(column, raw);
    case 'integer':
    case 'bigint':
      return coerceInteger(column, raw);
    case 'number':
      return coerceNumber(raw);
    case 'decimal':
      return DECIMAL.test(String(raw)) ? ok(String(raw)) : fail('must be a decimal number');
    case 'boolean':
      return coerceBoolean(raw);
    case 'date':
      return readDate(raw) !== undefined ? ok(raw) : fail(`must be a date (YYYY-MM-DD) ${DATE_RANGE_HINT}`);
    case 'datetime':
      return coerceDatetime(raw);
    case 'json':
      return fail('a JSON column can only be tested with isNull or isNotNull');
  }
}

function coerceString(column: ColumnMetadata, raw: unknown): Coerced {
  const text = typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : null;
  if (text === null) return fail('must be a string');
  if (text.includes('\u0000')) return fail('must not contain a NUL character');
  if (column.length !== undefined && text.length > column.length * 4) return fail(`is longer than the column allows`);
  return ok(text);
}

function coerceEnum(column: ColumnMetadata, raw: unknown): Coerced {
  const values = column.enumValues ?? [];
  const match = values.find((value) => String(value) === String(raw));
  return match !== undefined ? ok(match) : fail(`must be one of ${values.join(', ')}`);
}

function coerceInteger(column: ColumnMetadata, raw: unknown): Coerced {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^-?\d{1,20}$/.test(text)) return fail('must be an integer');
  if (column.kind === 'bigint') {
    const big = BigInt(text);
    if (big < -(2n ** 63n) || big >= 2n ** 63n) return fail('is out of range for a 64-bit integer');
    return ok(text);
  }
  const value = Number(text);
  if (value < INT32_MIN || value > INT32_MAX) return fail('is out of range for this integer column');
  return ok(value);
}

function coerceNumber(raw: unknown): Coerced {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(value)) return fail('must be a finite number');
  if (Math.abs(value) > 1e300) return fail('is out of range');
  return ok(value);
}

function coerceBoolean(raw: unknown): Coerced {
  if (raw === true || raw === 'true' || raw === '1' || raw === 1) return ok(true);
  if (raw === false || raw === 'false' || raw === '0' || raw === 0) return ok(false);
  return fail('must be true or false');
}

function coerceDatetime(raw: unknown): Coerced {
  const date = readDatetime(raw);
  return date ? ok(date) : fail(`must be an ISO 8601 date-time ${DATE_RANGE_HINT}`);
}

const ok = (value: unknown): Coerced => ({ ok: true, value });
const fail = (reason: string): Coerced => ({ ok: false, reason });
