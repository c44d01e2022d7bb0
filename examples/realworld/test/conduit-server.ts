/**
 * Conduit booted in the test process on a free port, on a database of its own: SQLite in memory, or a new
 * PostgreSQL schema (dropped on close) when SVC_TEST_POSTGRES_URL is set.
 */
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createConduitApp } from '../src/conduit-app';
import type { DatabaseLocation } from '../src/database-options';

export type ConduitDatabaseName = 'sqlite' | 'postgres';

const POSTGRES_URL = process.env['SVC_TEST_POSTGRES_URL'];

/** sqlite always; postgres when SVC_TEST_POSTGRES_URL is set. */
export const CONDUIT_DATABASES: readonly ConduitDatabaseName[] = [
  'sqlite',
  ...(POSTGRES_URL ? ['postgres' as const] : []),
];

export interface ConduitServer {
  /** `http://127.0.0.1:<port>`, without `/api`. */
  readonly origin: string;
  close(): Promise<void>;
}

let schemas = 0;

export interface FreshDatabase {
  readonly location: DatabaseLocation;
  /** Drops what the database holds (the PostgreSQL schema; an in-memory SQLite database goes with its connection). */
  drop(): Promise<void>;
}

/** An empty database: SQLite `:memory:`, or a new PostgreSQL schema. */
export async function freshDatabase(database: ConduitDatabaseName): Promise<FreshDatabase> {
  if (database === 'sqlite') return { location: { url: ':memory:' }, drop: async () => {} };
  const schema = `realworld_${process.pid}_${++schemas}`;
  await postgres(`CREATE SCHEMA "${schema}"`);
  return { location: { url: POSTGRES_URL, schema }, drop: () => postgres(`DROP SCHEMA "${schema}" CASCADE`) };
}

export async function startConduit(database: ConduitDatabaseName): Promise<ConduitServer> {
  const fresh = await freshDatabase(database);
  let app: INestApplication | undefined;
  try {
    app = await createConduitApp({ database: fresh.location, logger: false });
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await app?.close();
    await fresh.drop();
    throw error;
  }
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await fresh.drop();
    },
  };
}

async function postgres(sql: string): Promise<void> {
  const admin = await new DataSource({ type: 'postgres', url: POSTGRES_URL, logging: false }).initialize();
  try {
    await admin.query(sql);
  } finally {
    await admin.destroy();
  }
}
