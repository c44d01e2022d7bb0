/** Which SQL family a TypeORM DataSource speaks, and the few fragments that differ between them. */
import { ConfigurationException } from '@svc/core';
import type { DataSource } from 'typeorm';

export type DatabaseDialect = 'sqlite' | 'postgres' | 'mysql';

/** The dialect of each TypeORM driver type the adapter serves. */
export const DIALECT_BY_TYPE: Readonly<Record<string, DatabaseDialect>> = {
  'better-sqlite3': 'sqlite',
  sqlite: 'sqlite',
  postgres: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
};

/**
 * Whether the driver hands back the rows of an `INSERT ... RETURNING` and an `UPDATE ... RETURNING`: PostgreSQL's, and
 * better-sqlite3 (SQLite has had both since 3.35, which it bundles). TypeORM's node-sqlite3 driver (`sqlite`) runs
 * every INSERT and UPDATE with `run()`, which answers the last id or the change count, never rows, so there the rows
 * are read back. MariaDB returns inserted rows only, and MySQL none (asked of the driver, by the adapter).
 */
export function returnsRowsOfWrites(type: string): boolean {
  return type === 'postgres' || type === 'better-sqlite3';
}

/** The dialect of a DataSource; any other driver is a configuration error. */
export function dialectOf(dataSource: DataSource): DatabaseDialect {
  const type = String(dataSource.options.type);
  const dialect = DIALECT_BY_TYPE[type];
  if (dialect === undefined) {
    throw new ConfigurationException({
      message:
        `@svc/typeorm does not support the '${type}' driver. ` +
        'Use better-sqlite3, postgres, mysql or mariadb, or write a RepositoryAdapter for it.',
    });
  }
  return dialect;
}

/**
 * `ESCAPE` clause naming the backslash as LIKE escape character. MySQL reads a backslash inside a string literal as
 * an escape, so its literal holds two; PostgreSQL (standard_conforming_strings) and SQLite take one.
 */
export function likeEscapeClause(dialect: DatabaseDialect): string {
  return dialect === 'mysql' ? " ESCAPE '\\\\'" : " ESCAPE '\\'";
}
