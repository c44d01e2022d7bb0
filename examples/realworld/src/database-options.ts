/**
 * Where Conduit keeps its data: a SQLite file by default, `:memory:`, or PostgreSQL by URL (in `DATABASE_SCHEMA`
 * when set, a schema that already exists); the schema comes from the migrations, run on every start.
 */
import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { CONDUIT_ENTITIES } from './entities';
import { CONDUIT_MIGRATIONS, type ConduitDatabase } from './migrations';
import { TimestampsSubscriber } from './timestamps.subscriber';

/** The default SQLite file, next to the example's package.json. */
export const DEFAULT_SQLITE_FILE = join(__dirname, '..', 'conduit.db');

export interface DatabaseLocation {
  /** `postgres://...`, `sqlite:<file>` or `:memory:`; unset, the default SQLite file. @default process.env.DATABASE_URL */
  readonly url?: string;
  /** PostgreSQL only: the schema the tables live in. @default process.env.DATABASE_SCHEMA, else the user's default */
  readonly schema?: string;
}

export function databaseOptions(location: DatabaseLocation = {}): DataSourceOptions {
  const url = location.url ?? process.env['DATABASE_URL'];
  const on = (database: ConduitDatabase) => ({
    entities: CONDUIT_ENTITIES,
    subscribers: [TimestampsSubscriber],
    migrations: [...CONDUIT_MIGRATIONS[database]],
    migrationsRun: true,
    synchronize: false,
    logging: false,
  });
  if (!url) return { type: 'better-sqlite3', database: DEFAULT_SQLITE_FILE, ...on('sqlite') };
  if (url === ':memory:') return { type: 'better-sqlite3', database: ':memory:', ...on('sqlite') };
  if (/^sqlite:/i.test(url)) return { type: 'better-sqlite3', database: url.slice('sqlite:'.length), ...on('sqlite') };
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const schema = location.schema ?? process.env['DATABASE_SCHEMA'];
    // The migrations name their tables bare: the search path puts them in the schema.
    const inSchema = schema ? { schema, extra: { options: `-c search_path="${schema}"` } } : {};
    return { type: 'postgres', url, ...inSchema, ...on('postgres') };
  }
  throw new Error(
    `DATABASE_URL '${url.replace(/\/\/[^@/]*@/, '//***@')}' names no supported database. ` +
      'Use postgres://..., sqlite:<file>, :memory:, or leave it unset for the SQLite file.',
  );
}
