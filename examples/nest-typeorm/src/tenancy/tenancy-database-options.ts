/**
 * Where the tracker keeps its data: a SQLite file by default, `:memory:` for tests, PostgreSQL or MySQL/MariaDB by
 * URL. Its tables come from the entities (`synchronize`), to keep this example about tenancy; the bookstore shows
 * how an app builds its schema from migrations, which is what a deployed app should do.
 */
import { join } from 'node:path';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { TENANCY_ENTITIES } from './entities';

/** The default SQLite file, next to the example's package.json. */
export const TENANCY_SQLITE_FILE = join(__dirname, '..', '..', 'tenancy.db');

/** TypeORM options for `url`: `postgres://`, `mysql://` / `mariadb://`, `sqlite:<file>`, `:memory:`, or the file. */
export function tenancyDatabaseOptions(url: string = TENANCY_SQLITE_FILE): TypeOrmModuleOptions {
  const common = { entities: TENANCY_ENTITIES, synchronize: true, logging: false } as const;
  if (/^postgres(ql)?:\/\//i.test(url)) return { type: 'postgres', url, ...common };
  if (/^(mysql|mariadb):\/\//i.test(url))
    return { type: 'mariadb', url: url.replace(/^mariadb:/i, 'mysql:'), ...common };
  return { type: 'better-sqlite3', database: url.replace(/^sqlite:/i, ''), ...common };
}
