/**
 * Keeps a PostgreSQL connection that dies as it is handed out from ending the process.
 *
 * node-postgres reports a connection's failure as an `error` event, and an event nobody listens to is thrown. pg-pool
 * hands a new connection to its caller inside the socket read that completed its start-up, and TypeORM's query runner
 * starts listening one promise step later. When the same read also carries the server's FATAL message (a backend
 * killed while it starts: a failover, `pg_terminate_backend`, a restart), the event fires before anyone listens and
 * the exception escapes a socket handler, which ends a Node process. Every connection a pool opens gets a listener of
 * its own here; the connection is already marked unusable, so its runner's first statement fails as a lost
 * connection (503 with Retry-After) and the pool discards it when it is released.
 */
import type { DataSource } from 'typeorm';

/** The part of a pg-pool Pool this needs; TypeORM's PostgresDriver exposes its pools as `master` and `slaves`. */
interface EventedPool {
  on(event: 'connect', listener: (client: { on(event: 'error', listener: () => void): unknown }) => void): unknown;
}

const guarded = new WeakSet<object>();

/** Adds the listener to every connection the DataSource's PostgreSQL pools open from now on (once per pool). */
export function guardConnectionErrors(dataSource: DataSource): void {
  if (dataSource.options.type !== 'postgres') return;
  const driver = dataSource.driver as unknown as { master?: unknown; slaves?: unknown };
  const pools = [driver.master, ...(Array.isArray(driver.slaves) ? driver.slaves : [])];
  for (const pool of pools) {
    if (!isEventedPool(pool) || guarded.has(pool)) continue;
    guarded.add(pool);
    pool.on('connect', (client) => client.on('error', ignoreLostConnection));
  }
}

/** The runner's own listener (when it has one) releases the connection; this one only keeps the error handled. */
function ignoreLostConnection(): void {}

function isEventedPool(pool: unknown): pool is EventedPool {
  return typeof pool === 'object' && pool !== null && typeof (pool as { on?: unknown }).on === 'function';
}
