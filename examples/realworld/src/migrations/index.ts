/** The Conduit migrations, one set per database (their SQL differs), each in the order TypeORM runs them. */
import type { MigrationInterface } from 'typeorm';
import { CreateConduit1797000000000 as CreateConduitOnPostgres } from './postgres/1797000000000-CreateConduit';
import { CreateConduit1797000000000 as CreateConduitOnSqlite } from './sqlite/1797000000000-CreateConduit';

export type ConduitDatabase = 'sqlite' | 'postgres';

export const CONDUIT_MIGRATIONS: Readonly<Record<ConduitDatabase, ReadonlyArray<new () => MigrationInterface>>> = {
  sqlite: [CreateConduitOnSqlite],
  postgres: [CreateConduitOnPostgres],
};
