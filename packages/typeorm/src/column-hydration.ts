/**
 * How a column's database values become property values, chosen once per column at bootstrap. TypeORM's
 * `Driver.prepareHydratedValue` walks a chain of type checks for every value of every row read; for the cases below
 * its answer is known from the column alone, and the adapter gives that answer directly. Everything else (a
 * transformer, JSON, enums, arrays, `type: Number`, dates outside SQLite, text in another date format) goes to the
 * driver as before. `column-hydration.test.ts` holds each case against the driver on every supported database.
 */
import type { Driver } from 'typeorm';
import type { DatabaseDialect } from './database-dialect';
import type { OrmColumn } from './orm-metadata';

export type Hydrator = (value: unknown) => unknown;

/**
 * Column types the better-sqlite3, PostgreSQL and MySQL/MariaDB drivers hand back as the database client read them
 * (no branch of their `prepareHydratedValue` names them).
 */
const AS_READ = new Set<unknown>([
  'int',
  'integer',
  'smallint',
  'bigint',
  'float',
  'real',
  'double',
  'double precision',
  'decimal',
  'numeric',
  'varchar',
  'character varying',
  'char',
  'character',
  'nvarchar',
  'text',
  'uuid',
]);

/** Numeric types a virtual column may declare, whose value the database may give as text. */
const NUMERIC_VIRTUAL = new Set<unknown>([Number, 'int', 'integer', 'smallint', 'float', 'real', 'double', 'number']);

/** Column types each dialect's driver reads as a boolean (`value ? true : false`). */
const BOOLEAN_TYPES: Record<DatabaseDialect, ReadonlySet<unknown>> = {
  sqlite: new Set<unknown>([Boolean, 'boolean']),
  mysql: new Set<unknown>([Boolean, 'boolean', 'bool']),
  postgres: new Set<unknown>([Boolean]),
};

/**
 * Column types whose driver keeps a `Date` the client read as it is (`DateUtils.normalizeHydratedDate` only turns
 * text into a date): node-postgres and mysql2 hand these back as dates already.
 */
const DATE_READ_TYPES: Record<Exclude<DatabaseDialect, 'sqlite'>, ReadonlySet<unknown>> = {
  postgres: new Set<unknown>([
    Date,
    'datetime',
    'timestamp',
    'timestamp with time zone',
    'timestamp without time zone',
  ]),
  mysql: new Set<unknown>([Date, 'datetime']),
};

export function hydratorOf(driver: Driver, dialect: DatabaseDialect, column: OrmColumn): Hydrator {
  const byDriver: Hydrator = (value) => driver.prepareHydratedValue(value, column);
  // A transformer sees every value, null included.
  if (column.transformer) return byDriver;
  // A virtual column is a query's result, typed as the database computed it (a MySQL COUNT is a bigint, read as text):
  // a numeric one is read as a number.
  if (column.isVirtualProperty && NUMERIC_VIRTUAL.has(column.type)) {
    return unlessNull((value) => (typeof value === 'string' ? Number(value) : byDriver(value)));
  }
  if (AS_READ.has(column.type)) return (value) => value;
  if (BOOLEAN_TYPES[dialect].has(column.type)) return unlessNull((value) => (value ? true : false));
  if (dialect === 'sqlite' && (column.type === 'datetime' || column.type === Date)) {
    return unlessNull((value) => (typeof value === 'string' ? sqliteDateTime(value) : undefined) ?? byDriver(value));
  }
  if (dialect !== 'sqlite' && DATE_READ_TYPES[dialect].has(column.type) && !column.isArray) {
    return unlessNull((value) => (value instanceof Date ? value : byDriver(value)));
  }
  return unlessNull(byDriver);
}

/** Without a transformer every driver hands null and undefined back as they are. */
function unlessNull(read: Hydrator): Hydrator {
  return (value) => (value === null || value === undefined ? value : read(value));
}

/**
 * The UTC instant of SQLite's own datetime text, `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD HH:MM:SS.SSS` (what
 * `datetime('now')` and TypeORM write), as the driver reads it (`new Date('YYYY-MM-DDTHH:MM:SS[.SSS]Z')`), without
 * parsing text twice; undefined for any other text, or a field out of range (years before 100, which `Date.UTC`
 * reads as 19xx, and months, hours, minutes or seconds a date string may not hold), which the driver then reads.
 */
function sqliteDateTime(text: string): Date | undefined {
  if (text.length !== 19 && text.length !== 23) return undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const separator = DATETIME_SEPARATORS[i];
    if (separator === undefined ? code < 48 || code > 57 : code !== separator) return undefined;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const millisecond = text.length === 23 ? digits(text, 20, 3) : 0;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond));
}

/** The separators of `YYYY-MM-DD HH:MM:SS.SSS` by position; undefined where a digit goes. */
const DATETIME_SEPARATORS: readonly (number | undefined)[] = [...'0000-00-00 00:00:00.000'].map((char) =>
  char === '0' ? undefined : char.charCodeAt(0),
);

function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}
