/** The databases every persistence suite runs on, and an isolated, freshly created namespace per suite. */
import { createConnection } from 'mysql2/promise';
import { DataSource, type DataSourceOptions } from 'typeorm';

export type TestDatabaseName = 'sqlite' | 'postgres' | 'mysql';

export interface TestDatabase {
  readonly name: TestDatabaseName;
}

const POSTGRES_URL = process.env['SVC_TEST_POSTGRES_URL'];
const MYSQL_URL = process.env['SVC_TEST_MYSQL_URL'];

/** sqlite always; postgres when SVC_TEST_POSTGRES_URL is set; mysql when SVC_TEST_MYSQL_URL is set. */
export const TEST_DATABASES: readonly TestDatabase[] = Object.freeze([
  { name: 'sqlite' as const },
  ...(POSTGRES_URL ? [{ name: 'postgres' as const }] : []),
  ...(MYSQL_URL ? [{ name: 'mysql' as const }] : []),
]);

/**
 * DataSourceOptions for a fresh, isolated namespace per suite: sqlite ':memory:' (better-sqlite3); postgres: schema
 * `svc_<suite>` (`svf_<suite>` on Fastify) dropped (CASCADE) and recreated; mysql: database `svc_<suite>` (the same)
 * dropped and recreated, type 'mariadb' if the server is MariaDB else 'mysql'. synchronize: true, logging off.
 */
export async function testDataSourceOptions(
  db: TestDatabase,
  suite: string,
  entities: Function[],
): Promise<DataSourceOptions> {
  const namespace = namespaceOf(suite);
  switch (db.name) {
    case 'sqlite':
      return { type: 'better-sqlite3', database: ':memory:', entities, synchronize: true, logging: false };
    case 'postgres':
      await recreatePostgresSchema(requireUrl(POSTGRES_URL, 'SVC_TEST_POSTGRES_URL'), namespace);
      return {
        type: 'postgres',
        url: POSTGRES_URL,
        schema: namespace,
        entities,
        synchronize: true,
        logging: false,
      };
    case 'mysql':
      return mysqlOptions(requireUrl(MYSQL_URL, 'SVC_TEST_MYSQL_URL'), namespace, entities);
  }
}

/** testDataSourceOptions + new DataSource(...).initialize(). */
export async function openTestDataSource(db: TestDatabase, suite: string, entities: Function[]): Promise<DataSource> {
  return new DataSource(await testDataSourceOptions(db, suite, entities)).initialize();
}

function namespaceOf(suite: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(suite) || suite.length > 59) {
    throw new Error(`Test suite name '${suite}' must be snake_case, at most 59 characters (it becomes svc_<suite>).`);
  }
  // The Fastify runs of the shared suites (test/e2e/fastify/) load the same suite names: they get namespaces of their
  // own, so an Express and a Fastify run of one suite in two workers at once do not drop each other's tables.
  return `${process.env['SVC_TEST_PLATFORM'] === 'fastify' ? 'svf' : 'svc'}_${suite}`;
}

function requireUrl(url: string | undefined, variable: string): string {
  if (!url) throw new Error(`${variable} is not set.`);
  return url;
}

async function recreatePostgresSchema(url: string, schema: string): Promise<void> {
  const admin = await new DataSource({ type: 'postgres', url, logging: false }).initialize();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await ensureUuidExtension(admin);
  } finally {
    await admin.destroy();
  }
}

/** TypeORM creates uuid-ossp itself when missing; suites doing so at once race, so do it here and tolerate the race. */
async function ensureUuidExtension(admin: DataSource): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query('CREATE EXTENSION IF NOT EXISTS "uuid-ossp"');
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function mysqlOptions(url: string, database: string, entities: Function[]): Promise<DataSourceOptions> {
  const parsed = new URL(url);
  const connection = await createConnection({ uri: url });
  let mariadb: boolean;
  try {
    const [rows] = await connection.query('SELECT VERSION() AS version');
    mariadb = String((rows as { version: string }[])[0]?.version)
      .toLowerCase()
      .includes('mariadb');
    await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection.query(`CREATE DATABASE \`${database}\``);
  } finally {
    await connection.end();
  }
  return {
    type: mariadb ? 'mariadb' : 'mysql',
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 3306,
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
    entities,
    synchronize: true,
    logging: false,
  };
}
