/** Where the bookstore keeps its data: a SQLite file by default, PostgreSQL or MySQL/MariaDB by URL. */
import { join } from 'node:path';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { BOOKSTORE_ENTITIES } from './entities';

/** The default SQLite file, next to the example's package.json. */
export const DEFAULT_SQLITE_FILE = join(__dirname, '..', 'bookstore.db');

/**
 * TypeORM options for a database URL: `postgres://` / `postgresql://` selects PostgreSQL, `mysql://` / `mariadb://`
 * MySQL or MariaDB (the mysql2 driver), `sqlite:<file>` or `:memory:` a SQLite database; nothing the default file.
 */
export function databaseOptions(url: string | undefined = process.env['DATABASE_URL']): TypeOrmModuleOptions {
  const common = { entities: BOOKSTORE_ENTITIES, synchronize: true, logging: false } as const;
  if (!url) return { type: 'better-sqlite3', database: DEFAULT_SQLITE_FILE, ...common };
  if (url === ':memory:') return { type: 'better-sqlite3', database: ':memory:', ...common };
  if (/^postgres(ql)?:\/\//i.test(url)) return { type: 'postgres', url, ...common };
  if (/^(mysql|mariadb):\/\//i.test(url))
    return { type: 'mariadb', url: url.replace(/^mariadb:/i, 'mysql:'), ...common };
  if (/^sqlite:/i.test(url)) return { type: 'better-sqlite3', database: url.slice('sqlite:'.length), ...common };
  throw new Error(
    `DATABASE_URL '${url.replace(/\/\/[^@/]*@/, '//***@')}' names no supported database. ` +
      'Use postgres://..., mysql://..., sqlite:<file>, :memory:, or leave it unset for the SQLite file.',
  );
}
