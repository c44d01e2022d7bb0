/**
 * The refusal the first migration of every set starts with: a database that already has the bookstore's tables but
 * no record of the migration that creates them was made by an older example with `synchronize`, and is not adopted.
 */
import type { QueryRunner } from 'typeorm';

/** The bookstore's tables, in the order the first migration creates them. */
const BOOKSTORE_TABLES = ['author', 'tag', 'book', 'review', 'book_tags'] as const;

/** Thrown when the first migration finds the bookstore's tables already there; retrying cannot help. */
export class TablesWithoutMigrationsError extends Error {
  override readonly name = 'TablesWithoutMigrationsError';
}

/**
 * Throws TablesWithoutMigrationsError when any bookstore table exists and no migration is recorded. Adopting those
 * tables as they are would hide every way they differ from what the migrations build
 * (docs/adr/0037-example-migrations.md).
 */
export async function refuseTablesWithoutMigrations(queryRunner: QueryRunner): Promise<void> {
  const found: string[] = [];
  for (const table of BOOKSTORE_TABLES) if (await queryRunner.hasTable(table)) found.push(table);
  if (found.length === 0) return;
  // Another instance starting at the same moment may have made them, and recorded this migration, since this start
  // looked: a retry finds nothing pending. TypeORM takes no lock while it migrates.
  if (await recordsAMigration(queryRunner)) {
    throw new Error("Another start ran the bookstore's migrations meanwhile; retry the start and nothing is pending.");
  }
  const { type, database } = queryRunner.connection.options;
  const remedy =
    type === 'better-sqlite3' && typeof database === 'string'
      ? `Delete ${database}`
      : `Drop the tables ${found.join(', ')}`;
  throw new TablesWithoutMigrationsError(
    `The database already has the bookstore's tables (${found.join(', ')}) but no record of the migrations that ` +
      'create them: an older version of the example made them with synchronize, which it no longer uses. ' +
      `${remedy} and start again; the example creates its tables by migration and seeds them anew.`,
  );
}

async function recordsAMigration(queryRunner: QueryRunner): Promise<boolean> {
  const table = queryRunner.connection.options.migrationsTableName ?? 'migrations';
  const rows = await queryRunner.manager.createQueryBuilder().select('1', 'one').from(table, 'm').limit(1).getRawMany();
  return rows.length > 0;
}
