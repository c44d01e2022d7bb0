/**
 * A database connection lost during a request answers 503 SVC_DATABASE_UNAVAILABLE with Retry-After on every surface;
 * the pool recovers, and a connection that dies as it is handed out does not end the process.
 */
import request, { type Response } from 'supertest';
import {
  DataSource,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
  type DataSourceOptions,
  type QueryRunner,
} from 'typeorm';
import { Author, Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { TEST_DATABASES, type TestDatabase } from '../support/test-databases';
import { expectItem, expectList, expectProblem } from './support/e2e-http';
import { classifyDriverError } from '../../packages/typeorm/src/classify-driver-error';

const SUITE = 'e2e_lost_connections';
/** PostgreSQL application_name of the app's pool, so the suite kills its own app's backends and nobody else's. */
const APP_NAME = 'svc_e2e_lost_connections_app';
/** The pool of the app that serves every surface (its own name, so each app's backends are told apart). */
const SURFACES_APP_NAME = 'svc_e2e_lost_connections_surfaces';

/** SQLite has no connection to lose: these specs run on the server databases only. */
const SERVER_DATABASES = TEST_DATABASES.filter((db) => db.name !== 'sqlite');

/**
 * A second pool of two connections beside the app: `holder` takes the locks the app's requests wait on, `admin` finds
 * the app's connections and kills them.
 */
interface Saboteur {
  readonly dataSource: DataSource;
  readonly holder: QueryRunner;
  readonly admin: QueryRunner;
  /** Ids (PostgreSQL pid, MariaDB thread id) of the app's connections; with `waiting`, only those waiting on a lock. */
  appConnections(options: { waiting: boolean }): Promise<number[]>;
  kill(id: number): Promise<void>;
  /** Locks the whole book table, so that even plain reads of it wait. */
  lockBookTable(): Promise<void>;
  releaseLocks(): Promise<void>;
}

async function openSaboteur(db: TestDatabase, app: DataSource, appName = APP_NAME): Promise<Saboteur> {
  const options = { ...app.options, synchronize: false, poolSize: 2, applicationName: 'svc_e2e_saboteur' };
  const dataSource = await new DataSource(options as DataSourceOptions).initialize();
  const holder = dataSource.createQueryRunner();
  const admin = dataSource.createQueryRunner();
  await holder.connect();
  await admin.connect();
  const table = dataSource.getMetadata(Book).tablePath;
  if (db.name === 'postgres') {
    const quoted = table
      .split('.')
      .map((part) => `"${part}"`)
      .join('.');
    return {
      dataSource,
      holder,
      admin,
      appConnections: async ({ waiting }) => {
        const rows = (await admin.query(
          `SELECT pid FROM pg_stat_activity WHERE application_name = $1${waiting ? ` AND wait_event_type = 'Lock'` : ''}`,
          [appName],
        )) as { pid: number }[];
        return rows.map((row) => Number(row.pid));
      },
      kill: async (pid) => {
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      },
      lockBookTable: async () => {
        await holder.startTransaction();
        await holder.query(`LOCK TABLE ${quoted} IN ACCESS EXCLUSIVE MODE`);
      },
      releaseLocks: async () => {
        if (holder.isTransactionActive) await holder.rollbackTransaction();
      },
    };
  }
  const own = await Promise.all(
    [holder, admin].map(async (runner) =>
      Number(((await runner.query('SELECT CONNECTION_ID() AS id')) as { id: unknown }[])[0]?.id),
    ),
  );
  const database = String((app.options as { database?: unknown }).database);
  return {
    dataSource,
    holder,
    admin,
    appConnections: async ({ waiting }) => {
      const rows = (await admin.query(
        `SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = ? AND ID NOT IN (?, ?)` +
          (waiting
            ? // A row-lock wait shows no state of its own (MariaDB reports 'Statistics'), so match the locking read.
              ` AND COMMAND = 'Query' AND (STATE LIKE 'Waiting for%' OR INFO LIKE '% FOR UPDATE')`
            : ''),
        [database, ...own],
      )) as { id: unknown }[];
      return rows.map((row) => Number(row.id));
    },
    kill: async (id) => {
      await admin.query(`KILL ${Number(id)}`);
    },
    lockBookTable: async () => {
      await holder.query(`LOCK TABLES \`${table}\` WRITE`);
    },
    releaseLocks: async () => {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.query('UNLOCK TABLES');
    },
  };
}

/** Polls `find` until it returns ids, and returns them. */
async function eventually(find: () => Promise<number[]>, what: string): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ids = await find();
    if (ids.length > 0) return ids;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts a request now; supertest sends it only once it is awaited or `then`ed. */
function started(test: request.Test): Promise<Response> {
  return test.then((res) => res);
}

function expectUnavailable(res: Response): void {
  const problem = expectProblem(res, 503, 'SVC_DATABASE_UNAVAILABLE');
  expect(problem.title).toBe('Database unavailable');
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

/**
 * The answer a client gets that retries on 503 as Retry-After tells it to: the pool may hand out a connection the
 * server killed once more (the driver learns the socket closed only after the connection went back to the pool), so a
 * retry or two may meet a dead one too. Each of those must be the same retryable 503, never a 500.
 */
async function afterRetries(send: () => request.Test): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await send();
    if (res.status !== 503 || attempt === 5) return res;
    expectUnavailable(res);
  }
}

function lostConnectionSpecs(db: TestDatabase): void {
  let t: TestApp;
  let saboteur: Saboteur;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: SUITE,
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book)],
      ...(db.name === 'postgres' ? { dataSource: { applicationName: APP_NAME } } : {}),
    });
    bookId = (await t.dataSource.getRepository(Book).save({ title: 'Original', pages: 10 })).id;
    saboteur = await openSaboteur(db, t.dataSource);
  });

  afterEach(async () => {
    await saboteur?.releaseLocks();
  });

  afterAll(async () => {
    await saboteur?.holder.release();
    await saboteur?.admin.release();
    await saboteur?.dataSource.destroy();
    await t?.close();
  });

  describe('when the connection of a write is killed while it waits for a row lock', () => {
    let res: Response;

    beforeAll(async () => {
      await saboteur.holder.startTransaction();
      await saboteur.holder.manager
        .createQueryBuilder(Book, 'book')
        .setLock('pessimistic_write')
        .where('book.id = :id', { id: bookId })
        .getOneOrFail();
      const pending = started(request(t.server).patch(`/books/${bookId}`).send({ title: 'Lost' }));
      for (const id of await eventually(() => saboteur.appConnections({ waiting: true }), 'the blocked PATCH')) {
        await saboteur.kill(id);
      }
      res = await pending;
      await saboteur.releaseLocks();
    });

    it('answers 503 SVC_DATABASE_UNAVAILABLE with Retry-After', () => {
      expectUnavailable(res);
    });

    it('writes nothing', async () => {
      const row = await saboteur.admin.manager.findOneByOrFail(Book, { id: bookId });
      expect(row).toMatchObject({ title: 'Original', pages: 10 });
    });

    it('serves the next request on a fresh connection', async () => {
      const res = await afterRetries(() => request(t.server).patch(`/books/${bookId}`).send({ pages: 11 }));
      expect(expectItem(res)).toMatchObject({
        title: 'Original',
        pages: 11,
      });
    });
  });

  describe('when the connection of a read is killed while it waits for a table lock', () => {
    let res: Response;

    beforeAll(async () => {
      await saboteur.lockBookTable();
      const pending = started(request(t.server).get('/books'));
      for (const id of await eventually(() => saboteur.appConnections({ waiting: true }), 'the blocked GET')) {
        await saboteur.kill(id);
      }
      res = await pending;
      await saboteur.releaseLocks();
    });

    it('answers 503 SVC_DATABASE_UNAVAILABLE with Retry-After', () => {
      expectUnavailable(res);
    });

    it('serves the next request on a fresh connection', async () => {
      expect(expectList(await afterRetries(() => request(t.server).get('/books'))).items).toHaveLength(1);
    });
  });

  describe('when every idle connection of the pool was killed', () => {
    beforeAll(async () => {
      // Both reads of a counted list run at once, so the pool holds at least two idle connections.
      expectList(await request(t.server).get('/books'));
      for (const id of await eventually(() => saboteur.appConnections({ waiting: false }), 'idle connections')) {
        await saboteur.kill(id);
      }
      const deadline = Date.now() + 10_000;
      while ((await saboteur.appConnections({ waiting: false })).length > 0) {
        if (Date.now() > deadline) throw new Error('Timed out waiting for the killed connections to close.');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });

    it('serves the next read', async () => {
      expect(expectList(await afterRetries(() => request(t.server).get('/books'))).items).toHaveLength(1);
    });

    it('serves the next write', async () => {
      expectItem(await afterRetries(() => request(t.server).patch(`/books/${bookId}`).send({ pages: 12 })));
    });
  });

  it('reads a connection killed between two statements of a transaction as unavailable', async () => {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const [own] = (await runner.query(
        db.name === 'postgres' ? 'SELECT pg_backend_pid() AS id' : 'SELECT CONNECTION_ID() AS id',
      )) as { id: unknown }[];
      await saboteur.kill(Number(own!.id));
      // PostgreSQL: TypeORM releases the runner when its idle connection reports the failure, and the next statement
      // fails as a released runner; MariaDB: the next statement meets the closed connection.
      const deadline = Date.now() + 5_000;
      while (db.name === 'postgres' && !runner.isReleased && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const failure = await runner.manager.query('SELECT 1').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeDefined();
      expect(classifyDriverError(failure, db.name === 'postgres' ? 'postgres' : 'mysql').kind).toBe('unavailable');
    } finally {
      await runner.release().catch(() => undefined);
    }
  });

  if (db.name === 'postgres') {
    it('keeps the process up when a connection dies as the pool hands it out, before anyone listens', async () => {
      // What TypeORM's query runner meets when the backend's FATAL message arrives in the read that completes the
      // connection: a connection taken from the pool with no listener of the taker's own yet.
      const pool = (t.dataSource.driver as unknown as { master: PgPool }).master;
      const client = await pool.connect();
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      const [own] = (await client.query('SELECT pg_backend_pid() AS id')).rows as { id: unknown }[];
      await saboteur.kill(Number(own!.id));
      // Unguarded, the error event is thrown out of the socket handler here and fails the suite as uncaught.
      await ended;
      client.release(new Error('killed'));
      expectItem(await afterRetries(() => request(t.server).get(`/books/${bookId}`)));
    });
  }
}

/** The part of a pg-pool Pool and its clients the pool-level spec uses. */
interface PgPool {
  connect(): Promise<{
    query(sql: string): Promise<{ rows: unknown[] }>;
    once(event: 'end', listener: () => void): void;
    release(error?: Error): void;
  }>;
}

/**
 * Each surface's requests while the app's connections are killed: before the request (the pool still holds the dead
 * connections), a moment before, and while it runs. Every answer is a success, a client error or a 503, never a 500;
 * the lost-connection specs above pin the 503 itself.
 */
function surfaceSweepSpecs(db: TestDatabase): void {
  let app: McpApp;
  let saboteur: Saboteur;
  let base: string;
  const ids: number[] = [];
  let authorId: number;

  beforeAll(async () => {
    app = await startMcpApp({
      db,
      suite: `${SUITE}_surfaces`,
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { include: { fields: ['author', 'tags'] } }),
        svcController('authors', Author),
      ],
      svc: { graphql: true },
      ...(db.name === 'postgres' ? { dataSource: { applicationName: SURFACES_APP_NAME } } : {}),
    });
    base = app.url.replace(/\/mcp$/, '');
    authorId = (await app.dataSource.getRepository(Author).save({ name: 'Sweep author' })).id;
    const books = await app.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 60 }, (_, i) => ({ title: `Sweep ${i}`, pages: i, author: { id: authorId } })));
    ids.push(...books.map((book) => book.id));
    saboteur = await openSaboteur(db, app.dataSource, SURFACES_APP_NAME);
  });

  afterAll(async () => {
    await saboteur?.holder.release();
    await saboteur?.admin.release();
    await saboteur?.dataSource.destroy();
    await app?.close();
  });

  it('answers every request on REST, GraphQL and MCP with a success or a 503, never a 500', async () => {
    // Each delete takes a row no earlier delete took; a restore brings back the last one deleted.
    const deleted: number[] = [];
    const fresh = () => {
      const id = ids[2 + (deleted.length % (ids.length - 2))]!;
      deleted.push(id);
      return id;
    };
    const tool = (name: string, args: unknown): SweepRequest => ({
      method: 'POST',
      path: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    const gql = (query: string): SweepRequest => ({ method: 'POST', path: '/graphql', body: { query } });
    const kinds: Record<string, () => SweepRequest> = {
      'REST list': () => ({ method: 'GET', path: '/books?include=author,tags&filter[pages][gte]=0&sort=-id' }),
      'REST get': () => ({ method: 'GET', path: `/books/${ids[0]}?include=author,tags` }),
      'REST create': () => ({ method: 'POST', path: '/books', body: { title: 'n', author: { id: authorId } } }),
      'REST put': () => ({ method: 'PUT', path: `/books/${ids[1]}`, body: { title: 'p', pages: 3 } }),
      'REST patch': () => ({ method: 'PATCH', path: `/books/${ids[1]}`, body: { pages: 4 } }),
      'REST JSON Patch': () => ({
        method: 'PATCH',
        path: `/books/${ids[1]}`,
        headers: { 'content-type': 'application/json-patch+json' },
        body: [{ op: 'replace', path: '/pages', value: 5 }],
      }),
      'REST delete': () => ({ method: 'DELETE', path: `/books/${fresh()}` }),
      'REST restore': () => ({ method: 'POST', path: `/books/${deleted.at(-1) ?? ids[2]}/restore` }),
      'GraphQL list': () => gql('{ books { items { id title author { name } tags { id } } total } }'),
      'GraphQL create': () => gql('mutation { createBook(input: { title: "g" }) { id author { name } } }'),
      'GraphQL patch': () => gql(`mutation { patchBook(id: ${ids[1]}, input: { pages: 9 }) { id author { name } } }`),
      'GraphQL delete': () => gql(`mutation { deleteBook(id: ${fresh()}) }`),
      'MCP list': () => tool('book_find_many', { include: ['author'] }),
      'MCP create': () => tool('book_create_one', { data: { title: 'm' } }),
      'MCP patch': () => tool('book_patch_one', { id: ids[1], data: { pages: 7 } }),
    };
    const killAll = async () => {
      for (const id of await saboteur.appConnections({ waiting: false }))
        await saboteur.kill(id).catch(() => undefined);
    };
    const wrong: string[] = [];
    for (const [name, build] of Object.entries(kinds)) {
      for (let round = 0; round < 6; round++) {
        let answer: { status: number; text: string };
        if (round < 2) {
          await killAll();
          if (round === 1) await new Promise((resolve) => setTimeout(resolve, 30));
          answer = await sendSweep(base, build());
        } else {
          const pending = sendSweep(base, build());
          await new Promise((resolve) => setTimeout(resolve, round - 2));
          await killAll();
          answer = await pending;
        }
        if (answer.status >= 500 && answer.status !== 503) wrong.push(`${name}: ${answer.status} ${answer.text}`);
        else if (/SVC_PERSISTENCE_ERROR|SVC_INTERNAL/.test(answer.text)) wrong.push(`${name}: ${answer.text}`);
      }
    }
    expect(wrong).toEqual([]);
  });
}

interface SweepRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

async function sendSweep(base: string, sweep: SweepRequest): Promise<{ status: number; text: string }> {
  const response = await fetch(base + sweep.path, {
    method: sweep.method,
    headers: { 'content-type': 'application/json', ...sweep.headers },
    ...(sweep.body === undefined ? {} : { body: JSON.stringify(sweep.body) }),
  });
  return { status: response.status, text: (await response.text()).slice(0, 500) };
}

/**
 * What each driver raises when its connection is lost, classified without a server: these always run, so the mapping
 * is checked even where only SQLite is configured (the killed-connection specs below need a server database).
 */
describe('classifyDriverError on a lost connection', () => {
  it.each([
    ['postgres', { code: '57P01', message: 'terminating connection due to administrator command' }],
    ['postgres', { code: '08006', message: 'connection failure' }],
    ['postgres', { message: 'Connection terminated unexpectedly' }],
    ['postgres', { message: 'Client has encountered a connection error and is not queryable' }],
    ['postgres', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['mysql', { code: 'PROTOCOL_CONNECTION_LOST', message: 'Connection lost: The server closed the connection.' }],
    ['mysql', { errno: 1927, message: 'Connection was killed' }],
    ['mysql', { message: "Can't add new command when connection is in closed state" }],
  ] as const)('reads %s %j as unavailable', (dialect, error) => {
    expect(classifyDriverError({ driverError: error }, dialect).kind).toBe('unavailable');
  });

  it('reads a query runner TypeORM released after its connection failed as unavailable, on every dialect', () => {
    for (const dialect of ['postgres', 'mysql', 'sqlite'] as const) {
      expect(classifyDriverError(new QueryRunnerAlreadyReleasedError(), dialect).kind).toBe('unavailable');
      expect(classifyDriverError(new QueryRunnerProviderAlreadyReleasedError(), dialect).kind).toBe('unavailable');
    }
  });

  it('leaves other failures to their own kinds', () => {
    expect(classifyDriverError({ driverError: { code: '40P01' } }, 'postgres').kind).toBe('transient');
    expect(classifyDriverError({ driverError: { errno: 1062, message: 'Duplicate entry' } }, 'mysql').kind).toBe(
      'unique',
    );
  });
});

// Only where a server database is configured; the database-suites notice of `pnpm test` names it when it is not.
for (const db of SERVER_DATABASES) {
  describe(`lost database connections on ${db.name}`, () => lostConnectionSpecs(db));
  describe(`lost database connections on every surface, on ${db.name}`, () => surfaceSweepSpecs(db));
}
