/**
 * The bookstore's migrations, one set per database (their SQL differs), each in the order TypeORM runs them. A
 * migration generated into `sqlite/`, `postgres/` or `mysql/` joins its set here: TypeORM runs only what is listed,
 * and the example's migration tests fail on a file that is not.
 */
import type { MigrationInterface } from 'typeorm';
import { CreateBookstore1795863169911 as CreateBookstoreOnMysql } from './mysql/1795863169911-CreateBookstore';
import { CreateBookstore1795863169911 as CreateBookstoreOnPostgres } from './postgres/1795863169911-CreateBookstore';
import { CreateBookstore1795863169911 as CreateBookstoreOnSqlite } from './sqlite/1795863169911-CreateBookstore';
import { AddBookSupplierCostAndFeatured1796680339567 as AddBookSupplierCostAndFeaturedOnMysql } from './mysql/1796680339567-AddBookSupplierCostAndFeatured';
import { AddBookSupplierCostAndFeatured1796680339567 as AddBookSupplierCostAndFeaturedOnPostgres } from './postgres/1796680339567-AddBookSupplierCostAndFeatured';
import { AddBookSupplierCostAndFeatured1796680339567 as AddBookSupplierCostAndFeaturedOnSqlite } from './sqlite/1796680339567-AddBookSupplierCostAndFeatured';

/** The databases the example runs on, each with a migration set of its own. */
export type BookstoreDatabase = 'sqlite' | 'postgres' | 'mysql';

export const BOOKSTORE_MIGRATIONS: Readonly<Record<BookstoreDatabase, ReadonlyArray<new () => MigrationInterface>>> = {
  sqlite: [CreateBookstoreOnSqlite, AddBookSupplierCostAndFeaturedOnSqlite],
  postgres: [CreateBookstoreOnPostgres, AddBookSupplierCostAndFeaturedOnPostgres],
  mysql: [CreateBookstoreOnMysql, AddBookSupplierCostAndFeaturedOnMysql],
};
