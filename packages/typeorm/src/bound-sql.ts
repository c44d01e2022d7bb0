/**
 * Statements the adapter writes itself and sends through `EntityManager.query`, without a QueryBuilder: the SQL names
 * its values with `SqlParameters`' `:svc_pN` placeholders, and `bindSql` turns them into the driver's own (`?`, `$n`).
 * Every value stays bound, where TypeORM's SQLite builder writes numbers into the text: the SQL of a statement shape
 * is then one text for every id or page, so the driver's statement cache (better-sqlite3) prepares it once.
 */
import type { Driver } from 'typeorm';

/** `:svc_p0`, `:svc_p1`, ... as `SqlParameters.bind` writes them; nothing else in the adapter's SQL starts so. */
const PLACEHOLDER = /:(svc_p\d+)\b/g;

/**
 * `sql` with the driver's placeholders and its values in their order, converted the way TypeORM converts the
 * values it binds (`escapeQueryWithParameters` with no named parameters: booleans as 0/1 and dates as UTC text on
 * SQLite, as given elsewhere). A name used twice binds once on PostgreSQL (`$n` again) and twice elsewhere.
 */
export function bindSql(driver: Driver, sql: string, values: Readonly<Record<string, unknown>>): [string, unknown[]] {
  const ordered: Record<string, unknown> = {};
  const numberOf = new Map<string, string>();
  let count = 0;
  const positional = driver.createParameter('svc', 0) !== driver.createParameter('svc', 1);
  const text = sql.replace(PLACEHOLDER, (whole, name: string) => {
    if (!(name in values)) throw new Error(`@svc/typeorm: no value bound for ${whole}.`);
    const again = positional ? numberOf.get(name) : undefined;
    if (again !== undefined) return again;
    ordered[String(count)] = values[name];
    const placeholder = driver.createParameter(name, count++);
    numberOf.set(name, placeholder);
    return placeholder;
  });
  const [, converted] = driver.escapeQueryWithParameters(text, {}, ordered);
  return [text, driver.options.type === 'better-sqlite3' ? converted.map(asSqliteInteger) : converted];
}

/**
 * better-sqlite3 binds every JavaScript number as a REAL, so `"pages" < ?` compares each row's INTEGER with a REAL
 * (6% slower over a 10,000-row scan than with an integer); a whole number within the safe range is bound as the
 * INTEGER it is. SQLite compares integers and reals by value, so no row matches differently.
 */
function asSqliteInteger(value: unknown): unknown {
  return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
}
