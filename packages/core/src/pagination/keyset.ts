/**
 * Keyset boundaries, shared by the `cursor` and `since` strategies: the condition for the rows after a boundary row,
 * and how a boundary value travels in a token and back.
 */
import type { ColumnMetadata } from '../persistence/entity-metadata';
import type { Row } from '../persistence/repository-adapter';
import { coerceFilterValue, type Coerced } from '../schema/coerce-filter-value';
import type { DatabaseSpelling, FilterNode, SortKey } from '../persistence/query-ast';

/** `YYYY-MM-DD HH:MM:SS[.f][+00]`: a date-time as a database spelled it (a space where ISO 8601 has a `T`). */
const DATABASE_SPELLING = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(\+00)?$/;

/** Date-time keys, whose database spelling a page reads so the next boundary compares exactly. */
export function exactKeysOf(fields: readonly string[], columns: ReadonlyMap<string, ColumnMetadata>): string[] {
  return fields.filter((field) => columns.get(field)?.kind === 'datetime');
}

/**
 * The value a token carries for `field` of the boundary row: a date-time as the database spelled it (exact to its
 * own precision, unlike the millisecond `Date`), any other value as it is.
 */
export function writeKeyValue(
  column: ColumnMetadata,
  row: Row,
  exact: Readonly<Record<string, string | null>> | undefined,
): unknown {
  const spelled = column.kind === 'datetime' ? exact?.[column.property] : undefined;
  if (typeof spelled === 'string') return spelled;
  const value = row[column.property];
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

/**
 * A boundary value read back from a token. A date-time spelled with a space is the database's own spelling and is
 * bound as is; one in ISO 8601 (`T`, with a zone) is coerced like a filter value. Null only on a nullable column.
 */
export function readKeyValue(column: ColumnMetadata, raw: unknown): Coerced {
  if (raw === null) return column.nullable ? { ok: true, value: null } : { ok: false, reason: 'must not be null' };
  if (column.kind === 'datetime' && typeof raw === 'string' && raw.includes(' ')) {
    return validSpelling(raw)
      ? { ok: true, value: { databaseSpelling: raw } satisfies DatabaseSpelling }
      : { ok: false, reason: 'is not a date-time (YYYY-MM-DD HH:MM:SS.ffffff)' };
  }
  return coerceFilterValue(column, raw);
}

function validSpelling(text: string): boolean {
  const match = DATABASE_SPELLING.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1000 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  return day <= new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate();
}

/**
 * The rows strictly after the boundary in the sort's order: `(k1 > v1) OR (k1 = v1 AND k2 > v2) OR ...`. Adapters sort
 * a null as larger than any value (`FindManyArgs.sort`), so a nullable key gets null-aware terms: ascending, the
 * rows after a value include the nulls; descending, the rows after a null are the non-null ones.
 */
export function keysetAfter(
  sort: readonly SortKey[],
  values: readonly unknown[],
  columns: ReadonlyMap<string, ColumnMetadata>,
): FilterNode {
  const branches: FilterNode[] = [];
  sort.forEach((key, index) => {
    const beyond = beyondTerm(key, values[index], columns.get(key.field)?.nullable ?? false);
    if (!beyond) return;
    const equal = sort.slice(0, index).map((prior, i) => equalTerm(prior.field, values[i]));
    branches.push(equal.length === 0 ? beyond : { kind: 'and', children: [...equal, beyond] });
  });
  return branches.length === 1 ? branches[0]! : { kind: 'or', children: branches };
}

function equalTerm(field: string, value: unknown): FilterNode {
  return value === null
    ? { kind: 'condition', field, operator: 'isNull', value: null }
    : { kind: 'condition', field, operator: 'eq', value };
}

/** The rows past the boundary on this key alone; undefined when none can be (ascending, past a null). */
function beyondTerm(key: SortKey, value: unknown, nullable: boolean): FilterNode | undefined {
  const { field } = key;
  if (value === null) {
    return key.direction === 'asc' ? undefined : { kind: 'condition', field, operator: 'isNotNull', value: null };
  }
  const past: FilterNode = { kind: 'condition', field, operator: key.direction === 'asc' ? 'gt' : 'lt', value };
  if (key.direction === 'desc' || !nullable) return past;
  return { kind: 'or', children: [past, { kind: 'condition', field, operator: 'isNull', value: null }] };
}
