/** Checks one JSON body value against its column and converts it to what the adapter writes. */
import type { ColumnList, ColumnMetadata } from '../persistence/entity-metadata';
import { DATE_RANGE_HINT, readDate, readDatetime } from './date-values';

export type Checked = { ok: true; value: unknown } | { ok: false; reason: string };

const INT32 = 2147483647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^-?\d{1,30}(\.\d{1,30})?$/;

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
      return (typeof value === 'number' && Number.isSafeInteger(value)) ||
        (typeof value === 'string' && /^-?\d{1,19}$/.test(value))
        ? ok(String(value))
        : fail('must be an integer (a string for values past 2^53)');
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? ok(value) : fail('must be a finite number');
    case 'decimal':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL.test(value))
        ? ok(String(value))
        : fail('must be a decimal number');
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
    if (!checked.ok) return fail(`item [${index}] ${checked.reason}`);
    if (list.separator !== undefined && typeof one === 'string' && one.includes(list.separator))
      return fail(`item [${index}] must not contain '${list.separator}', which separates the stored values`);
    values.push(checked.value);
  }
  return ok(values);
}

function checkDatetime(value: unknown): Checked {
  const date = readDatetime(value);
  return date ? ok(date) : fail(`must be an ISO 8601 date-time ${DATE_RANGE_HINT}`);
}

const ok = (value: unknown): Checked => ({ ok: true, value });
const fail = (reason: string): Checked => ({ ok: false, reason });
