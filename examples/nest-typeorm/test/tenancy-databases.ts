/**
 * The databases the tenancy suite runs on: SQLite in memory always, and PostgreSQL and MariaDB/MySQL when
 * SVC_TEST_POSTGRES_URL and SVC_TEST_MYSQL_URL are set, each in a database of the run's own, made before the app
 * boots (it builds its tables with synchronize) and dropped after.
 */
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';

/** A database the suite runs on: SQLite in memory always; PostgreSQL and MariaDB/MySQL when their URL is set. */
export interface SuiteDatabase {
  readonly name: string;
  /** The URL the app is given, after making its database. */
  open(): Promise<string>;
  close(): Promise<void>;
}

/** A database of this run's own (dropped at the end) on the server of `url`. */
function ownDatabase(name: string, url: string): SuiteDatabase {
  const database = `svc_tenancy_example_${process.pid}`;
  const at = new URL(url);
  at.pathname = `/${database}`;
  const admin = async (sql: string) => {
    if (name === 'postgres') {
      const source = await new DataSource({ type: 'postgres', url, logging: false }).initialize();
      await source.query(sql).finally(() => source.destroy());
    } else {
      const connection = await createConnection({ uri: url });
      await connection.query(sql).finally(() => connection.end());
    }
  };
  const quoted = name === 'postgres' ? `"${database}"` : `\`${database}\``;
  return {
    name,
    open: async () => {
      await admin(`DROP DATABASE IF EXISTS ${quoted}`);
      await admin(`CREATE DATABASE ${quoted}`);
      return at.toString();
    },
    close: () => admin(`DROP DATABASE IF EXISTS ${quoted}`),
  };
}

export const TENANCY_DATABASES: readonly SuiteDatabase[] = [
  { name: 'sqlite', open: async () => ':memory:', close: async () => undefined },
  ...(process.env['SVC_TEST_POSTGRES_URL'] ? [ownDatabase('postgres', process.env['SVC_TEST_POSTGRES_URL'])] : []),
  ...(process.env['SVC_TEST_MYSQL_URL'] ? [ownDatabase('mysql', process.env['SVC_TEST_MYSQL_URL'])] : []),
];
