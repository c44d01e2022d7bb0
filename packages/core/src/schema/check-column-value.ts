/** Checks one JSON body value against its column and converts it to what the adapter writes. */
import type { ColumnList, ColumnMetadata } from '../persistence/entity-metadata';
import { DATE_RANGE_HINT, readDate, readDatetime } from './date-values';

/**
 * The value to write, or why it cannot be written. `code` is the errors[] item code of a value of the right shape that
 * the column cannot hold exactly (`out_of_range`); any other refusal is `invalid_value`.
 */
export type Checked = { ok: true; value: unknown } | { ok: false; reason: string; code?: 'out_of_range' };

const INT32 = 2147483647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^-?\d{1,30}(\.\d{1,30})?$/;
/** A JavaScript number's exponent spelling (`1e+21`, `1.5e-7`). */
const EXPONENT = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT64_RANGE = `a bigint column holds a signed 64-bit integer, from ${INT64_MIN} to ${INT64_MAX}; send a value in that range`;

export function checkColumnValue(column: ColumnMetadata, value: unknown): Checked {
  if (value === null) return column.nullable ? ok(null) : fail('must not be null');
  switch (column.kind) {
    case 'string':
      if (typeof value !== 'string') return fail('must be a string');
      if (value.includes('\u0000')) return fail('must not contain a NUL character');
      if (column.length !== undefined && [...value].length > column.length)
        return fail(`must be at most ${column.length} characters`);
      return ok(value);
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? ok(value) : fail('must be a UUID');
    case 'enum':
      return column.enumValues?.includes(value as string)
        ? ok(value)
        : fail(`must be one of ${column.enumValues?.join(', ')}`);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= INT32
        ? ok(value)
        : fail('must be an integer from -2147483648 to 2147483647');
    case 'bigint':
      return checkBigint(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? ok(value) : fail('must be a finite number');
    case 'decimal':
      return checkDecimal(column, value);
    case 'boolean':
      return typeof value === 'boolean' ? ok(value) : fail('must be true or false');
    case 'date':
      return readDate(value) !== undefined ? ok(value) : fail(`must be a date (YYYY-MM-DD) ${DATE_RANGE_HINT}`);
    case 'datetime':
      return checkDatetime(value);
    case 'json':
      return column.list ? checkList(column, column.list, value) : ok(value);
  }
}

/** The column an item of each list column is checked as, made once per column. */
const itemColumns = new WeakMap<ColumnMetadata, ColumnMetadata>();

/** A list column's value: an array of values of its kind, none null, none holding a `simple-array`'s separator. */
function checkList(column: ColumnMetadata, list: ColumnList, value: unknown): Checked {
  if (!Array.isArray(value)) return fail(`must be an array of ${list.of} values`);
  let item = itemColumns.get(column);
  if (!item) itemColumns.set(column, (item = { ...column, kind: list.of, nullable: false, list: undefined }));
  const values: unknown[] = [];
  for (const [index, one] of value.entries()) {
    const checked = checkColumnValue(item, one);
    if (!checked.ok) return { ...checked, reason: `item [${index}] ${checked.reason}` };
    if (list.separator !== undefined && typeof one === 'string' && one.includes(list.separator))
      return fail(`item [${index}] must not contain '${list.separator}', which separates the stored values`);
    values.push(checked.value);
  }
  return ok(values);
}

/**
 * An integer of the signed 64-bit range, as its digits: PostgreSQL and MariaDB refuse a value past it, and SQLite would
 * store it as a rounded REAL, so it is refused here, before any write, on every database.
 */
function checkBigint(value: unknown): Checked {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return ok(String(value));
  if (typeof value !== 'string' || !/^-?\d+$/.test(value))
    return fail('must be an integer (a string for values past 2^53)');
  // Past 19 significant digits no value is in range: refused before BigInt reads a long text.
  const inRange = value.replace(/^-?0*/, '').length <= 19 && BigInt(value) >= INT64_MIN && BigInt(value) <= INT64_MAX;
  return inRange ? ok(value) : outOfRange(`is out of range: ${INT64_RANGE}`);
}

/**
 * A decimal number, as text, that the column keeps exactly: no more digits after the point than its scale, and no more
 * before it than its precision less its scale. The databases differ past them (PostgreSQL and MariaDB round the
 * fraction, SQLite keeps a REAL; a whole part too long fails at the database or is kept), so a value that does not
 * fit is refused here on every database. A number in exponent form (`1e-7`) is written as plain digits.
 */
function checkDecimal(column: ColumnMetadata, value: unknown): Checked {
  const text =
    typeof value === 'string'
      ? DECIMAL.test(value)
        ? value
        : undefined
      : typeof value === 'number' && Number.isFinite(value)
        ? plainDigits(String(value))
        : undefined;
  if (text === undefined) return fail('must be a decimal number');
  const { precision, scale = 0 } = column;
  if (precision === undefined) return ok(text);
  const [whole = '', fraction = ''] = text.replace(/^-/, '').split('.');
  const wholeDigits = whole.replace(/^0+/, '').length;
  const fractionDigits = fraction.replace(/0+$/, '').length;
  const declared = `decimal(${precision},${scale})`;
  if (fractionDigits > scale) {
    return outOfRange(
      `has ${fractionDigits} digits after the point, and a ${declared} column keeps ${scale}; ` +
        `round it to ${scale} decimal places`,
    );
  }
  if (wholeDigits > precision - scale) {
    return outOfRange(
      `is out of range: a ${declared} column keeps ${precision - scale} digits before the point ` +
        `(at most ${largestDecimal(precision, scale)}); send a smaller value`,
    );
  }
  return ok(text);
}

/** A number's text without an exponent (`1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000`). */
function plainDigits(text: string): string {
  const parts = EXPONENT.exec(text);
  if (!parts) return text;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const spelled =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + spelled;
}

/** The largest value of decimal(precision, scale): `decimal(5,2)` → `999.99`. */
function largestDecimal(precision: number, scale: number): string {
  const whole = '9'.repeat(Math.max(precision - scale, 0)) || '0';
  return scale > 0 ? `${whole}.${'9'.repeat(scale)}` : whole;
}

function checkDatetime(value: unknown): Checked {
  const date = readDatetime(value);
  return date ? ok(date) : fail(`must be an ISO 8601 date-time ${DATE_RANGE_HINT}`);
}

const ok = (value: unknown): Checked => ({ ok: true, value });
const fail = (reason: string): Checked => ({ ok: false, reason });
const outOfRange = (reason: string): Checked => ({ ok: false, reason, code: 'out_of_range' });
