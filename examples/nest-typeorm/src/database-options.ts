/**
 * Where the bookstore keeps its data (a SQLite file by default, PostgreSQL or MySQL/MariaDB by URL) and the
 * migrations that build its schema there.
 */
import { join } from 'node:path';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { BOOKSTORE_ENTITIES } from './entities';
import { BOOKSTORE_MIGRATIONS, type BookstoreDatabase } from './migrations';
import { TablesWithoutMigrationsError } from './migrations/tables-without-migrations';

/** The default SQLite file, next to the example's package.json. */
export const DEFAULT_SQLITE_FILE = join(__dirname, '..', 'bookstore.db');

/**
 * TypeORM options for a database URL: `postgres://` / `postgresql://` selects PostgreSQL, `mysql://` / `mariadb://`
 * MySQL or MariaDB (the mysql2 driver), `sqlite:<file>` or `:memory:` a SQLite database; nothing the default file.
 * Nest's TypeORM module retries a failed start, but not a database it refused for tables made without migrations.
 */
export function databaseOptions(url: string | undefined = process.env['DATABASE_URL']): TypeOrmModuleOptions {
  return { ...dataSourceOptions(url), toRetry: (error: unknown) => !(error instanceof TablesWithoutMigrationsError) };
}

/**
 * The DataSource options behind `databaseOptions`, which TypeORM's CLI reads too (src/migrations/data-source.ts).
 * The schema comes from the database's migration set, run on every start (those already recorded are skipped), never
 * from `synchronize`, which may drop a column to match an entity.
 */
export function dataSourceOptions(url: string | undefined = process.env['DATABASE_URL']): DataSourceOptions {
  const on = (database: BookstoreDatabase) => ({
    entities: BOOKSTORE_ENTITIES,
    migrations: [...BOOKSTORE_MIGRATIONS[database]],
    migrationsRun: true,
    synchronize: false,
    logging: false,
  });
  if (!url) return { type: 'better-sqlite3', database: DEFAULT_SQLITE_FILE, ...on('sqlite') };
  if (url === ':memory:') return { type: 'better-sqlite3', database: ':memory:', ...on('sqlite') };
  if (/^postgres(ql)?:\/\//i.test(url)) return { type: 'postgres', url, ...on('postgres') };
  if (/^(mysql|mariadb):\/\//i.test(url))
    return { type: 'mariadb', url: url.replace(/^mariadb:/i, 'mysql:'), ...on('mysql') };
  if (/^sqlite:/i.test(url)) return { type: 'better-sqlite3', database: url.slice('sqlite:'.length), ...on('sqlite') };
  throw new Error(
    `DATABASE_URL '${url.replace(/\/\/[^@/]*@/, '//***@')}' names no supported database. ` +
      'Use postgres://..., mysql://..., sqlite:<file>, :memory:, or leave it unset for the SQLite file.',
  );
}

/** Which migration set options from `dataSourceOptions` run. */
export function migrationSetOf(options: DataSourceOptions): BookstoreDatabase {
  if (options.type === 'postgres') return 'postgres';
  if (options.type === 'mariadb' || options.type === 'mysql') return 'mysql';
  return 'sqlite';
}
