/**
 * Evaluates a filter against one row in memory, as SQL would where SQL's answer does not depend on the database: the
 * realtime binding decides with it which subscribers may see an event (a deleted row can no longer be queried).
 * Where the answer could differ between databases (`like`, whose case rules do) or needs another table (a relation
 * path), it answers `undefined`: the caller then asks the database, or refuses.
 */
import type { ColumnKind } from '../persistence/entity-metadata';
import type { FilterCondition, FilterNode } from '../persistence/query-ast';

/** The kind of each own column, so values compare as the database compares them. */
export type KindOf = (field: string) => ColumnKind | undefined;

const NUMERIC_KINDS: ReadonlySet<ColumnKind> = new Set(['integer', 'number', 'bigint', 'decimal', 'boolean']);

/** true, false, or undefined when memory cannot decide (SQL's unknown for a null operand is false here). */
export type FilterVerdict = boolean | undefined;

export function matchFilter(node: FilterNode, row: Readonly<Record<string, unknown>>, kindOf: KindOf): FilterVerdict {
  switch (node.kind) {
    case 'and': {
      let verdict: FilterVerdict = true;
      for (const child of node.children) {
        const result = matchFilter(child, row, kindOf);
        if (result === false) return false;
        if (result === undefined) verdict = undefined;
      }
      return verdict;
    }
    case 'or': {
      let verdict: FilterVerdict = false;
      for (const child of node.children) {
        const result = matchFilter(child, row, kindOf);
        if (result === true) return true;
        if (result === undefined) verdict = undefined;
      }
      return verdict;
    }
    case 'not': {
      // NOT over a null operand stays unknown in SQL, so the row is out: decided by the database.
      const result = matchFilter(node.child, row, kindOf);
      return result === undefined || involvesNull(node.child, row) ? undefined : !result;
    }
    default:
      return matchCondition(node, row, kindOf);
  }
}

function matchCondition(
  condition: FilterCondition,
  row: Readonly<Record<string, unknown>>,
  kindOf: KindOf,
): FilterVerdict {
  const kind = kindOf(condition.field);
  if (condition.field.includes('.') || condition.scope !== undefined || !(condition.field in row) || !kind)
    return undefined;
  // JSON columns compare by the database's own rules.
  if (kind === 'json') return undefined;
  const actual = row[condition.field];
  const { operator, value } = condition;
  const compare = (a: unknown, b: unknown) => compareAs(kind, a, b);
  const order = (a: unknown, b: unknown, test: (comparison: number) => boolean): FilterVerdict => {
    const comparison = compare(a, b);
    return Number.isNaN(comparison) ? undefined : test(comparison);
  };
  if (operator === 'isNull') return actual === null || actual === undefined;
  if (operator === 'isNotNull') return actual !== null && actual !== undefined;
  if (actual === null || actual === undefined) return (operator === 'eq' && value === null) || false;
  switch (operator) {
    case 'eq':
      return value !== null && compare(actual, value) === 0;
    case 'ne':
      return value === null || compare(actual, value) !== 0;
    case 'gt':
      return order(actual, value, (c) => c > 0);
    case 'gte':
      return order(actual, value, (c) => c >= 0);
    case 'lt':
      return order(actual, value, (c) => c < 0);
    case 'lte':
      return order(actual, value, (c) => c <= 0);
    case 'in':
      return (value as readonly unknown[]).some((item) => compare(actual, item) === 0);
    case 'notIn':
      return !(value as readonly unknown[]).some((item) => compare(actual, item) === 0);
    case 'between': {
      const [low, high] = value as readonly unknown[];
      return order(actual, low, (c) => c >= 0) === true && order(actual, high, (c) => c <= 0) === true;
    }
    case 'contains':
      return lower(actual).includes(lower(value));
    case 'startsWith':
      return lower(actual).startsWith(lower(value));
    case 'endsWith':
      return lower(actual).endsWith(lower(value));
    case 'ilike':
      return likePattern(String(value)).test(lower(actual));
    default:
      // `like`: case-sensitive on PostgreSQL, not on SQLite or under MySQL's usual collations.
      return undefined;
  }
}

/**
 * Compares by the column's kind: numbers for numeric kinds (drivers serve decimals and bigints as strings), instants
 * for date-times, text otherwise. NaN when the values cannot be compared that way.
 */
function compareAs(kind: ColumnKind, actual: unknown, value: unknown): number {
  let a: number | string;
  let b: number | string;
  if (NUMERIC_KINDS.has(kind)) {
    a = Number(typeof actual === 'boolean' ? Number(actual) : actual);
    b = Number(typeof value === 'boolean' ? Number(value) : value);
  } else if (kind === 'datetime') {
    a = instant(actual);
    b = instant(value);
  } else {
    a = actual instanceof Date ? actual.toISOString().slice(0, kind === 'date' ? 10 : undefined) : String(actual);
    b = value instanceof Date ? value.toISOString().slice(0, kind === 'date' ? 10 : undefined) : String(value);
  }
  if (typeof a === 'number' && (Number.isNaN(a) || Number.isNaN(b as number))) return Number.NaN;
  return a === b ? 0 : a < b ? -1 : 1;
}

function instant(value: unknown): number {
  return value instanceof Date ? value.getTime() : new Date(String(value)).getTime();
}

function lower(value: unknown): string {
  return String(value).toLowerCase();
}

/** An `ilike` pattern (`%` any run, `_` one character), matched against lower-cased text. */
function likePattern(pattern: string): RegExp {
  const body = [...pattern.toLowerCase()]
    .map((char) => (char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's');
}

function involvesNull(node: FilterNode, row: Readonly<Record<string, unknown>>): boolean {
  if (node.kind === 'not') return involvesNull(node.child, row);
  if (node.kind !== 'condition') return node.children.some((child) => involvesNull(child, row));
  if (node.operator === 'isNull' || node.operator === 'isNotNull') return false;
  return row[node.field] === null || row[node.field] === undefined;
}
