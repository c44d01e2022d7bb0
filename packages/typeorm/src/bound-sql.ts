/**
 * Statements the adapter writes itself and sends through `EntityManager.query`, without a QueryBuilder: the SQL names
 * its values with `SqlParameters`' `:svc_pN` placeholders, and `bindSql` turns them into the driver's own (`?`, `$n`).
 * Every value stays bound, where TypeORM's SQLite builder writes numbers into the text: the SQL of a statement shape
 * is then one text for every id or page, so the driver's statement cache (better-sqlite3) prepares it once.
 */
import type { Driver, EntityManager } from 'typeorm';
// TypeORM's own date text, so a date Svc binds reads back as TypeORM writes it (`typeorm/util/*` on 0.3 and 1 alike).
import { DateUtils } from 'typeorm/util/DateUtils';
import { DIALECT_BY_TYPE } from './database-dialect';
import { replicaRouterOf } from './replica-router';

/** `:svc_p0`, `:svc_p1`, ... as `SqlParameters.bind` writes them; nothing else in the adapter's SQL starts so. */
const PLACEHOLDER = /:(svc_p\d+)\b/g;

/**
 * `sql` with the driver's placeholders and its values in their order, converted as TypeORM's SQLite drivers bind
 * native parameters (booleans as 0/1, dates as UTC text, whole numbers as integers) and as given elsewhere. A name used
 * twice binds once on PostgreSQL (`$n` again) and twice elsewhere. The conversion is Svc's own: TypeORM 1 dropped the
 * native-parameter argument of `escapeQueryWithParameters`, and its named form writes numbers into the SQL text.
 */
export function bindSql(driver: Driver, sql: string, values: Readonly<Record<string, unknown>>): [string, unknown[]] {
  const ordered: unknown[] = [];
  const numberOf = new Map<string, string>();
  let count = 0;
  const positional = driver.createParameter('svc', 0) !== driver.createParameter('svc', 1);
  const text = sql.replace(PLACEHOLDER, (whole, name: string) => {
    if (!(name in values)) throw new Error(`@svc/typeorm: no value bound for ${whole}.`);
    const again = positional ? numberOf.get(name) : undefined;
    if (again !== undefined) return again;
    ordered.push(values[name]);
    const placeholder = driver.createParameter(name, count++);
    numberOf.set(name, placeholder);
    return placeholder;
  });
  return [text, driverValues(driver, ordered)];
}

/** Values in statement order, converted as TypeORM's SQLite drivers bind them (see `bindSql`); as given elsewhere. */
export function driverValues(driver: Driver, ordered: unknown[]): unknown[] {
  const type = String(driver.options.type);
  if (type === 'better-sqlite3') return ordered.map((value) => asSqliteInteger(asSqliteValue(value)));
  return DIALECT_BY_TYPE[type] === 'sqlite' ? ordered.map(asSqliteValue) : ordered;
}

/** A value as TypeORM's SQLite drivers store it: a boolean as 0/1, a date as UTC text (`YYYY-MM-DD HH:mm:ss.SSS`). */
function asSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return DateUtils.mixedDateToUtcDatetimeString(value);
  return value;
}

/**
 * better-sqlite3 binds every JavaScript number as a REAL, so `"pages" < ?` compares each row's INTEGER with a REAL
 * (6% slower over a 10,000-row scan than with an integer); a whole number within the safe range is bound as the
 * INTEGER it is. SQLite compares integers and reals by value, so no row matches differently.
 */
function asSqliteInteger(value: unknown): unknown {
  return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
}

/**
 * The rows of a SELECT sent as it is (every driver answers a SELECT with its rows, keyed by column alias). In a
 * session it runs on the session's connection; outside one, where the replica router sends a read: a replica when
 * the DataSource has `replication` and the caller's own writes are replayed there, else the primary
 * (`EntityManager.query` alone would always read from the primary).
 */
export async function rawRows(
  manager: EntityManager,
  [sql, values]: [string, unknown[]],
): Promise<Record<string, unknown>[]> {
  if (manager.queryRunner) return (await manager.query(sql, values)) as Record<string, unknown>[];
  return replicaRouterOf(manager.connection).read(
    async (routed) => (await routed.query(sql, values)) as Record<string, unknown>[],
  );
}
