/**
 * The statements of `aggregate`: one `SELECT <keys>, COUNT(*), <measures>, COUNT(*) OVER () ... GROUP BY <keys>` for a
 * page of groups that carries the count of all groups (the window runs over the grouped rows, before LIMIT), and one
 * `SELECT COUNT(*) FROM (SELECT 1 ... GROUP BY <keys>)` counting the groups, for a page past the last one.
 *
 * A group key on a to-one relation path (`author.name`) reads the related row through a LEFT JOIN of a derived table
 * (`SELECT <target key>, <column> FROM <target> WHERE <scope> AND <marker> IS NULL`): the scope's columns stay
 * unqualified inside it, as the filter compiler writes them, and a root row whose related row is missing, outside the
 * scope or soft-deleted finds no partner and groups under null. The root's own columns are named through its alias.
 * Every key is grouped by the very expression it is selected as (MySQL's ONLY_FULL_GROUP_BY), and the order repeats
 * expressions rather than select aliases (PostgreSQL takes no alias inside an expression such as MySQL's `IS NULL`).
 *
 * Values come back as the port describes them: min, max and key values through their column's own hydration (a
 * SQLite bigint read exactly, as text past 2^53, as rows read it); sums
 * exact as text where the column is exact. PostgreSQL's `numeric` and MySQL's `DECIMAL` sums already are. SQLite
 * stores a decimal column's values as REAL (or INTEGER when whole), so a sum of decimals with a declared scale adds
 * each value rounded to that scale as whole units (`SUM(CAST(ROUND(x * 100) AS INTEGER))`, exact to 2^63 units) and
 * spells the result with the scale's digits, `0.10 + 0.20` as `'0.30'` as the other databases do; without a declared
 * scale it is SQLite's own REAL sum as text. Integer sums are read as text on SQLite (its driver reads an integer
 * into a double); a bigint sum is added there in two 32-bit halves (`sqliteBigintSum`), exact past 2^63, where
 * SQLite's own SUM fails with an overflow. An average is a double everywhere: on MySQL
 * the exact sum as a double divided by the count, as its own AVG of an exact column keeps only 4 more digits.
 */
import type { AggregateArgs, AggregateGroup, AggregateMeasure, AggregateOrderTerm, GroupKey } from '@svc/core/spi';
import { exactIntegerSql, type EntityTable, type TableColumn } from './entity-table';
import type { Hydrator } from './column-hydration';
import { filterToSql, rowsOfSql, type SqlParameters } from './filter-sql';
import { orderTerms } from './keyset-sql';

/** The alias of the groups' count, in the page's statement and in the one counting them apart. */
export const GROUP_TOTAL = 'svc_total';

export interface AggregateStatements {
  /** The page of groups, without its LIMIT/OFFSET (the caller appends them). */
  readonly groups: string;
  /** The statement counting the groups; absent without a `groupBy` (there is exactly one group then). */
  readonly count?: string;
  /** One row of `groups` as the group it stands for. */
  readonly read: (raw: Record<string, unknown>) => AggregateGroup;
}

/** The root's part of every statement: `FROM <table> <alias>` and its ` WHERE ...` (bound into the same params). */
export interface AggregateSource {
  readonly from: string;
  readonly where: string;
  /** The alias `from` gives the root table. */
  readonly alias: string;
}

/** A group key as SQL: what is grouped and ordered by, what is selected, and how its value is read. */
interface GroupedKey {
  readonly field: string;
  readonly expression: string;
  /** The select expression: `expression`, or its exact reading (a SQLite bigint). */
  readonly selected: string;
  readonly nullable: boolean;
  readonly hydrate: Hydrator;
  /** The LEFT JOIN that lends a relation path's value. */
  readonly join?: string;
}

/**
 * A measure as SQL: its select expression, the numeric expressions it orders by (one, or a SQLite bigint sum's
 * high and low parts, ordered by each in turn), and how its value is read.
 */
interface MeasureSql {
  readonly select: string;
  readonly order: readonly string[];
  readonly nullable: boolean;
  readonly read: (value: unknown) => unknown;
}

/** The statements for `args` over `table`; scope values bind into `params`, beside those of `source.where`. */
export function aggregateSql(
  table: EntityTable,
  args: AggregateArgs,
  source: AggregateSource,
  params: SqlParameters,
): AggregateStatements {
  const q = (name: string) => table.driver.escape(name);
  const keys = args.groupBy.map((key, index) => groupedKey(table, source.alias, key, index, params));
  const measures = args.measures.map((measure) => ({
    name: `${measure.fn}.${measure.field}`,
    sql: measureSql(table, source.alias, measure),
  }));
  const selected = [
    ...keys.map((key, index) => `${key.selected} AS ${q(`svc_g${index}`)}`),
    `COUNT(*) AS ${q('svc_count')}`,
    ...measures.map((measure, index) => `${measure.sql.select} AS ${q(`svc_m${index}`)}`),
    // The groups' count rides along the page, as a counted list page's total does: a window over the grouped rows,
    // evaluated before LIMIT, so every row of the page carries the count of all groups. Not on MySQL/MariaDB, where a
    // window beside GROUP BY was seen to lose the ORDER BY (MariaDB 10.11, depending on the plan): there the adapter
    // counts apart, only when the page does not tell.
    ...(args.count && keys.length > 0 && table.dialect !== 'mysql' ? [`COUNT(*) OVER () AS ${q(GROUP_TOTAL)}`] : []),
  ];
  const body =
    `FROM ${source.from}${keys.map((key) => key.join ?? '').join('')}${source.where}` +
    (keys.length > 0 ? ` GROUP BY ${keys.map((key) => key.expression).join(', ')}` : '');
  const order: string[] = [];
  const orderBy = (sorted: { expression: string; nullable: boolean }, direction: 'asc' | 'desc') => {
    for (const term of orderTerms(table, sorted, direction))
      order.push(term.nulls ? `${term.expression} ${term.order} ${term.nulls}` : `${term.expression} ${term.order}`);
  };
  for (const sort of args.sort)
    for (const sorted of sortedBy(table, source.alias, keys, sort.by)) orderBy(sorted, sort.direction);
  // Every key ascending last: groups tied on the asked order keep one order from page to page.
  for (const key of keys) orderBy(key, 'asc');
  const groups = `SELECT ${selected.join(', ')} ${body}` + (order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '');
  const count =
    keys.length > 0
      ? `SELECT COUNT(*) AS ${q(GROUP_TOTAL)} FROM (SELECT 1 AS ${q('svc_one')} ${body}) ${q('svc_groups')}`
      : undefined;
  const read = (raw: Record<string, unknown>): AggregateGroup => ({
    key: Object.fromEntries(keys.map((key, index) => [key.field, key.hydrate(raw[`svc_g${index}`])])),
    count: Number(raw['svc_count']),
    values: Object.fromEntries(
      measures.map((measure, index) => [measure.name, measure.sql.read(raw[`svc_m${index}`])]),
    ),
  });
  return { groups, count, read };
}

/** An own column through the root's alias, or a to-one path through a LEFT JOIN of its own (`svc_j<index>`). */
function groupedKey(
  table: EntityTable,
  rootAlias: string,
  key: GroupKey,
  index: number,
  params: SqlParameters,
): GroupedKey {
  const q = (name: string) => table.driver.escape(name);
  const dot = table.relationOf(key.field) === undefined ? -1 : key.field.indexOf('.');
  if (dot < 0) {
    const column = table.requireColumn(key.field);
    const expression = `${q(rootAlias)}.${column.quoted}`;
    return {
      field: key.field,
      expression,
      selected: readExactly(column, expression),
      nullable: column.orm.isNullable,
      hydrate: column.hydrate,
    };
  }
  const relation = table.orm.findRelationWithPropertyPath(key.field.slice(0, dot));
  if (!relation || !(relation.isManyToOne || relation.isOneToOneOwner) || relation.joinColumns.length !== 1)
    throw new Error(`@svc/typeorm: '${key.field}' does not cross an owning to-one relation of ${table.name}.`);
  const target = table.tableOf(relation.inverseEntityMetadata.target as Function);
  const column = target.requireColumn(key.field.slice(dot + 1));
  const join = relation.joinColumns[0]!;
  const conditions: string[] = [];
  if (key.scope) conditions.push(filterToSql(key.scope, target, params));
  conditions.push(...rowsOfSql(target, 'live', params));
  const alias = q(`svc_j${index}`);
  const expression = `${alias}.${q('svc_value')}`;
  const lent =
    `SELECT ${q(join.referencedColumn!.databaseName)} AS ${q('svc_key')}, ${column.quoted} AS ${q('svc_value')} ` +
    `FROM ${target.quotedPath}` +
    (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '');
  return {
    field: key.field,
    expression,
    selected: readExactly(column, expression),
    nullable: true,
    hydrate: column.hydrate,
    join: ` LEFT JOIN (${lent}) ${alias} ON ${alias}.${q('svc_key')} = ${q(rootAlias)}.${q(join.databaseName)}`,
  };
}

/** What one term of the asked order sorts by, in turn. */
function sortedBy(
  table: EntityTable,
  rootAlias: string,
  keys: readonly GroupedKey[],
  term: AggregateOrderTerm,
): { expression: string; nullable: boolean }[] {
  switch (term.kind) {
    case 'count':
      return [{ expression: 'COUNT(*)', nullable: false }];
    case 'group': {
      const key = keys.find((candidate) => candidate.field === term.field);
      if (key) return [key];
      throw new Error(`@svc/typeorm: '${term.field}' is no group key of this aggregate of ${table.name}.`);
    }
    case 'measure': {
      const measure = measureSql(table, rootAlias, term);
      return measure.order.map((expression) => ({ expression, nullable: measure.nullable }));
    }
  }
}

/** `expression`, a value of `column`, as read exactly: a SQLite bigint through `exactIntegerSql`. */
function readExactly(column: TableColumn, expression: string): string {
  return column.rawKey === column.databaseName ? expression : exactIntegerSql(expression);
}

function measureSql(table: EntityTable, rootAlias: string, measure: AggregateMeasure): MeasureSql {
  const column = table.requireColumn(measure.field);
  const col = `${table.driver.escape(rootAlias)}.${column.quoted}`;
  switch (measure.fn) {
    case 'countDistinct': {
      const sql = `COUNT(DISTINCT ${col})`;
      return { select: sql, order: [sql], nullable: false, read: Number };
    }
    case 'avg': {
      // MySQL's AVG of an exact column is a DECIMAL cut 4 digits past the column's scale (div_precision_increment).
      const sql = table.dialect === 'mysql' ? `(SUM(${col}) + 0E0) / COUNT(${col})` : `AVG(${col})`;
      return { select: sql, order: [sql], nullable: true, read: unlessNull(Number) };
    }
    case 'min':
    case 'max': {
      const sql = `${measure.fn.toUpperCase()}(${col})`;
      return { select: readExactly(column, sql), order: [sql], nullable: true, read: column.hydrate };
    }
    case 'sum':
      return sumSql(table, column, col);
    default:
      throw new Error(`@svc/typeorm: '${String((measure as { fn: unknown }).fn)}' is not an aggregate function.`);
  }
}

/** A sum, exact where its column is (see the header), ordered by its numeric value. */
function sumSql(table: EntityTable, column: TableColumn, col: string): MeasureSql {
  const sum = `SUM(${col})`;
  const kind = table.metadata.columns.find((candidate) => candidate.property === column.property)?.kind;
  const sqlite = table.dialect === 'sqlite';
  switch (kind) {
    case 'decimal': {
      const scale = column.orm.scale;
      if (sqlite && scale !== undefined && Number.isInteger(scale) && scale >= 0 && scale <= 15) {
        const units = `SUM(CAST(ROUND(${col} * ${10 ** scale}) AS INTEGER))`;
        return { select: `CAST(${units} AS TEXT)`, order: [sum], nullable: true, read: unlessNull(scaled(scale)) };
      }
      return { select: sqlite ? `CAST(${sum} AS TEXT)` : sum, order: [sum], nullable: true, read: unlessNull(String) };
    }
    case 'bigint':
      if (sqlite) return sqliteBigintSum(col);
      return { select: sum, order: [sum], nullable: true, read: unlessNull(String) };
    case 'integer':
      return {
        select: sqlite ? `CAST(${sum} AS TEXT)` : sum,
        order: [sum],
        nullable: true,
        read: unlessNull(wholeNumber),
      };
    default:
      return { select: sum, order: [sum], nullable: true, read: unlessNull(Number) };
  }
}

/**
 * The exact sum of a SQLite bigint column, whose own SUM fails with "integer overflow" past 2^63 (PostgreSQL and
 * MySQL sum into a wider numeric). Each value is split into its high 32 bits (`x >> 32`, arithmetic) and its low 32
 * (`x & 4294967295`, from 0 to 2^32 - 1); neither part's SUM can overflow before 2^31 rows. The low sum's carry moves
 * to the high sum, so the pair (high, low) orders as the sum does, and `high * 2^32 + low` is read with BigInt.
 */
function sqliteBigintSum(col: string): MeasureSql {
  const low = `SUM(${col} & 4294967295)`;
  const high = `(SUM(${col} >> 32) + (${low} >> 32))`;
  const rest = `(${low} & 4294967295)`;
  return {
    select: `CAST(${high} AS TEXT) || ' ' || CAST(${rest} AS TEXT)`,
    order: [high, rest],
    nullable: true,
    read: unlessNull((value) => {
      const [highPart = '0', restPart = '0'] = String(value).split(' ');
      return String(BigInt(highPart) * 4294967296n + BigInt(restPart));
    }),
  };
}

/** An integer sum as a number while it is a safe integer, else as its text. */
function wholeNumber(value: unknown): number | string {
  const text = String(value);
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : text;
}

/** Whole units of 10^-scale as decimal text with `scale` digits after the point (`-5`, 2 → `-0.05`). */
function scaled(scale: number): (value: unknown) => string {
  return (value) => {
    const units = String(value);
    if (scale === 0) return units;
    const negative = units.startsWith('-');
    const digits = (negative ? units.slice(1) : units).padStart(scale + 1, '0');
    return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  };
}

function unlessNull<T>(read: (value: unknown) => T): (value: unknown) => T | null {
  return (value) => (value === null || value === undefined ? null : read(value));
}
