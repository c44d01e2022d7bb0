/**
 * The DataSource TypeORM's CLI reads (`-d src/migrations/data-source.ts`): the app's own options for `DATABASE_URL`,
 * so `migration:run` applies the migrations the app runs at start and `migration:generate` diffs the same entities.
 * The `migration:generate:<database>` scripts set `MIGRATION_SET`: a URL of another database would write its SQL into
 * the wrong folder.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions, migrationSetOf } from '../database-options';

const options = dataSourceOptions();
const expected = process.env['MIGRATION_SET'];
if (expected && migrationSetOf(options) !== expected) {
  throw new Error(
    `migration:generate:${expected} diffs a ${expected} database, but DATABASE_URL names a ${migrationSetOf(options)} ` +
      `one. Set DATABASE_URL to the ${expected} database to generate against.`,
  );
}

export const bookstoreDataSource = new DataSource(options);
