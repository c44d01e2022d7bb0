/**
 * The example's migrations, as the app runs them at start: on SQLite, and on PostgreSQL and MariaDB when their
 * SVC_TEST_* URL is set, each in a database the suite creates for itself (`svc_example_migrations`), so no other
 * suite's tables are touched. From an empty database every migration of the set runs once and TypeORM then finds
 * nothing to change (the committed SQL builds what the entities describe); the app boots on it and serves its seeded
 * books; a later start runs no migration again; and a database an older example made with synchronize is refused,
 * with the way out, at once.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { TEST_DATABASES, type TestDatabase } from '../../../test/support/test-databases';
import { AppModule } from '../src/app.module';
import { databaseOptions, dataSourceOptions } from '../src/database-options';
import { BOOKSTORE_ENTITIES } from '../src/entities';
import { BOOKSTORE_MIGRATIONS } from '../src/migrations';
import { TablesWithoutMigrationsError } from '../src/migrations/tables-without-migrations';

/** The suite's own database on PostgreSQL and MariaDB, dropped and created empty for every fresh start. */
const OWN_DATABASE = 'svc_example_migrations';
const MIGRATIONS_DIR = join(__dirname, '..', 'src', 'migrations');

interface Recorded {
  readonly id: number;
  readonly name: string;
}

/** An empty database for `db` as DATABASE_URL names it: a new SQLite file in `dir`, else the suite's own database. */
async function emptyDatabase(db: TestDatabase, dir: string): Promise<string> {
  switch (db.name) {
    case 'sqlite':
      rmSync(join(dir, 'bookstore.db'), { force: true });
      return `sqlite:${join(dir, 'bookstore.db')}`;
    case 'postgres': {
      const url = process.env['SVC_TEST_POSTGRES_URL']!;
      const admin = await new DataSource({ type: 'postgres', url, logging: false }).initialize();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${OWN_DATABASE}"`);
        await admin.query(`CREATE DATABASE "${OWN_DATABASE}"`);
      } finally {
        await admin.destroy();
      }
      return withDatabase(url, OWN_DATABASE);
    }
    case 'mysql': {
      const url = process.env['SVC_TEST_MYSQL_URL']!;
      const connection = await createConnection({ uri: url });
      try {
        await connection.query(`DROP DATABASE IF EXISTS \`${OWN_DATABASE}\``);
        await connection.query(`CREATE DATABASE \`${OWN_DATABASE}\``);
      } finally {
        await connection.end();
      }
      return withDatabase(url, OWN_DATABASE);
    }
  }
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The rows of TypeORM's migrations table, in the order they were recorded. */
async function recorded(dataSource: DataSource): Promise<Recorded[]> {
  const rows: { id: number | string; name: string }[] = await dataSource.query(
    'SELECT id, name FROM migrations ORDER BY id',
  );
  return rows.map((row) => ({ id: Number(row.id), name: row.name }));
}

/** The example's AppModule on `databaseUrl`, listening on a free local port. */
async function bootExample(databaseUrl: string): Promise<{ app: INestApplication; base: string }> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ databaseUrl })] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

describe.each(TEST_DATABASES)("the example's migrations on $name", (db) => {
  const set = BOOKSTORE_MIGRATIONS[db.name];
  const names = set.map((migration) => new migration().name ?? migration.name);
  let dir: string;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-example-migrations-'));
    url = await emptyDatabase(db, dir);
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`lists every file of src/migrations/${db.name} in its set, in the order of their timestamps`, () => {
    const files = readdirSync(join(MIGRATIONS_DIR, db.name))
      .filter((file) => file.endsWith('.ts'))
      .sort();
    // TypeORM's migration:generate writes `<timestamp>-<Name>.ts` holding the class `<Name><timestamp>`.
    const classes = files.map((file) => file.replace(/^(\d+)-(\w+)\.ts$/, '$2$1'));
    expect(set.map((migration) => migration.name)).toEqual(classes);
  });

  describe('on a first start from an empty database', () => {
    let dataSource: DataSource;

    beforeAll(async () => {
      dataSource = await new DataSource(dataSourceOptions(url)).initialize();
    }, 60_000);

    afterAll(async () => {
      await dataSource?.destroy();
    });

    it('runs every migration of the set and records each once', async () => {
      expect(names.length).toBeGreaterThan(0);
      expect((await recorded(dataSource)).map((row) => row.name)).toEqual(names);
    });

    it('leaves the schema the entities describe: TypeORM finds nothing to change', async () => {
      const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
      expect(upQueries.map((query) => query.query)).toEqual([]);
    });
  });

  describe('when the app starts on it', () => {
    let example: { app: INestApplication; base: string } | undefined;
    let before: Recorded[];

    beforeAll(async () => {
      const probe = await new DataSource({ ...dataSourceOptions(url), migrationsRun: false }).initialize();
      before = await recorded(probe);
      await probe.destroy();
      example = await bootExample(url);
    }, 60_000);

    afterAll(async () => {
      await example?.app.close();
    });

    it('answers GET /books with the books it seeded', async () => {
      const response = await fetch(`${example!.base}/books?limit=100`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { total: number; items: { title: string }[] };
      expect(body.total).toBe(30);
      expect(body.items.map((book) => book.title)).toContain('A Wizard of Earthsea');
    });

    it('runs no migration again', async () => {
      expect(await recorded(example!.app.get(DataSource))).toEqual(before);
    });
  });

  describe('on a start after the app', () => {
    it('finds no migration pending and records none again', async () => {
      const dataSource = await new DataSource(dataSourceOptions(url)).initialize();
      try {
        expect((await recorded(dataSource)).map((row) => row.name)).toEqual(names);
        expect(await dataSource.showMigrations()).toBe(false);
      } finally {
        await dataSource.destroy();
      }
    }, 60_000);
  });

  describe('when another start ran the first migration after this one found it pending', () => {
    it('fails it with an error the start retries, not the refusal', async () => {
      const dataSource = await new DataSource(dataSourceOptions(url)).initialize();
      const queryRunner = dataSource.createQueryRunner();
      try {
        const error: unknown = await new set[0]!().up(queryRunner).catch((failure: unknown) => failure);
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(TablesWithoutMigrationsError);
        expect(databaseOptions(url).toRetry?.(error)).toBe(true);
      } finally {
        await queryRunner.release();
        await dataSource.destroy();
      }
    }, 60_000);
  });

  describe('on a database an older example made with synchronize', () => {
    let olderUrl: string;

    beforeAll(async () => {
      olderUrl = await emptyDatabase(db, dir);
      const older = await new DataSource({
        ...dataSourceOptions(olderUrl),
        entities: BOOKSTORE_ENTITIES,
        migrations: [],
        migrationsRun: false,
        synchronize: true,
      }).initialize();
      await older.destroy();
    }, 60_000);

    // A start that retried would wait 3 s between each of its ten attempts, far past this test's timeout.
    it('refuses to start at once, saying how to start over', async () => {
      const remedy =
        db.name === 'sqlite'
          ? `Delete ${olderUrl.slice('sqlite:'.length)}`
          : 'Drop the tables author, tag, book, review, book_tags';
      // TypeORM prints the failed migration and its error to the console too, as a user sees them.
      const printed = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        await expect(bootExample(olderUrl)).rejects.toThrow(
          expect.objectContaining({
            name: 'TablesWithoutMigrationsError',
            message: expect.stringContaining(remedy),
          }),
        );
        expect(printed.mock.calls.flat().join('\n')).toContain(remedy);
      } finally {
        printed.mockRestore();
      }
    }, 10_000);
  });
});
