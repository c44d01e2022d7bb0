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
  // A relation path has no kind among the own columns (a column of an embedded class does, under its path).
  if (condition.scope !== undefined || !(condition.field in row) || !kind) return undefined;
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
      return value !== null && order(actual, value, (c) => c === 0);
    case 'ne':
      return value === null || order(actual, value, (c) => c !== 0);
    case 'gt':
      return order(actual, value, (c) => c > 0);
    case 'gte':
      return order(actual, value, (c) => c >= 0);
    case 'lt':
      return order(actual, value, (c) => c < 0);
    case 'lte':
      return order(actual, value, (c) => c <= 0);
    case 'in':
      return anyEqual(actual, value as readonly unknown[], compare);
    case 'notIn': {
      const found = anyEqual(actual, value as readonly unknown[], compare);
      return found === undefined ? undefined : !found;
    }
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
      return likeMatches(lower(actual), lower(value));
    default:
      // `like`: case-sensitive on PostgreSQL, not on SQLite or under MySQL's usual collations.
      return undefined;
  }
}

/**
 * Compares by the column's kind: numeric kinds as exact decimals (drivers serve decimals and bigints as strings, which
 * may hold more digits than a JavaScript number), instants for date-times, text otherwise. NaN when the values cannot
 * be compared that way.
 */
function compareAs(kind: ColumnKind, actual: unknown, value: unknown): number {
  let a: number | string;
  let b: number | string;
  if (NUMERIC_KINDS.has(kind)) {
    return compareDecimals(decimalOf(actual), decimalOf(value));
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

/** Whether `actual` equals one of `values`; undefined when none does and one could not be compared. */
function anyEqual(
  actual: unknown,
  values: readonly unknown[],
  compare: (a: unknown, b: unknown) => number,
): FilterVerdict {
  let undecided = false;
  for (const item of values) {
    const comparison = compare(actual, item);
    if (comparison === 0) return true;
    if (Number.isNaN(comparison)) undecided = true;
  }
  return undecided ? undefined : false;
}

interface Decimal {
  readonly negative: boolean;
  /** Without leading zeros ('' for zero). */
  readonly whole: string;
  /** Without trailing zeros. */
  readonly fraction: string;
}

const DECIMAL_TEXT = /^([+-]?)(\d+)(?:\.(\d*))?$/;

/** A number, bigint, boolean or plain decimal text as an exact decimal; undefined for anything else (`1e21`, ''). */
function decimalOf(value: unknown): Decimal | undefined {
  const text =
    typeof value === 'string'
      ? value.trim()
      : typeof value === 'number' && Number.isFinite(value)
        ? String(value)
        : typeof value === 'bigint'
          ? value.toString()
          : typeof value === 'boolean'
            ? value
              ? '1'
              : '0'
            : undefined;
  const match = text === undefined ? null : DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  const whole = match[2]!.replace(/^0+/, '');
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  return { negative: match[1] === '-' && (whole !== '' || fraction !== ''), whole, fraction };
}

function compareDecimals(a: Decimal | undefined, b: Decimal | undefined): number {
  if (!a || !b) return Number.NaN;
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const sign = a.negative ? -1 : 1;
  if (a.whole.length !== b.whole.length) return a.whole.length < b.whole.length ? -sign : sign;
  if (a.whole !== b.whole) return a.whole < b.whole ? -sign : sign;
  if (a.fraction === b.fraction) return 0;
  return a.fraction < b.fraction ? -sign : sign;
}

function instant(value: unknown): number {
  return value instanceof Date ? value.getTime() : new Date(String(value)).getTime();
}

function lower(value: unknown): string {
  return String(value).toLowerCase();
}

/** Past this many character steps (text × pattern), an in-memory LIKE leaves the verdict to the database. */
const LIKE_STEP_BUDGET = 1_000_000;

/**
 * Whether `text` matches a LIKE `pattern` (`%` any run, `_` one character, anything else itself, a backslash
 * included), by characters (code points, as the databases count them). It walks the text once and, on a mismatch,
 * goes back only to the last `%`: at most text × pattern steps, never the exponential backtracking a regular
 * expression with many `.*` runs can take, which a client's pattern could otherwise set off on every event. Undefined
 * (the database decides) when even that bound is past `LIKE_STEP_BUDGET`.
 */
export function likeMatches(text: string, pattern: string): boolean | undefined {
  const chars = Array.from(text);
  const wild = Array.from(pattern);
  if (chars.length * Math.max(wild.length, 1) > LIKE_STEP_BUDGET) return undefined;
  let at = 0;
  let next = 0;
  /** The last `%` seen, and the text position its run now ends at. */
  let star = -1;
  let resumeAt = 0;
  while (at < chars.length) {
    const want = wild[next];
    if (want === '%') {
      star = next++;
      resumeAt = at;
    } else if (want !== undefined && (want === '_' || want === chars[at])) {
      at++;
      next++;
    } else if (star !== -1) {
      next = star + 1;
      at = ++resumeAt;
    } else {
      return false;
    }
  }
  while (wild[next] === '%') next++;
  return next === wild.length;
}

function involvesNull(node: FilterNode, row: Readonly<Record<string, unknown>>): boolean {
  if (node.kind === 'not') return involvesNull(node.child, row);
  if (node.kind !== 'condition') return node.children.some((child) => involvesNull(child, row));
  if (node.operator === 'isNull' || node.operator === 'isNotNull') return false;
  return row[node.field] === null || row[node.field] === undefined;
}
