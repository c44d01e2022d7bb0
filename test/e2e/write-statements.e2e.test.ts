/**
 * Statements per request, every statement counted (transaction control included: each is a round trip to a networked
 * database). A write that needs nothing read first is one statement where the database returns written rows
 * (PostgreSQL and SQLite; a create on MariaDB too); a guarded write reads and locks its row and skips the read-back when the database returned the row. A
 * read by id is one statement, and a counted page carries its total in its own statement, on every database.
 */
import type { SvcContext } from '@svc/core';
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';

const scoped = (context: SvcContext) =>
  (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.['x-scope'] === 'published';

/** Round trips per request, by database: [create, patch, put, patch under a policy, patch under filter.apply]. */
const EXPECTED: Record<TestDatabaseName, readonly number[]> = {
  postgres: [1, 1, 1, 4, 5],
  sqlite: [1, 1, 1, 4, 5],
  // MariaDB returns inserted rows (10.5+) but not updated ones.
  mysql: [1, 5, 5, 5, 5],
};

/**
 * Round trips of an `updateMany` of two rows, transaction control included: [unscoped, under filter.apply]. Where an
 * UPDATE returns its rows, they answer the batch; under a scope they are read back, so a row the write moved out of
 * it refuses the batch.
 */
const EXPECTED_UPDATE_MANY: Record<TestDatabaseName, readonly number[]> = {
  postgres: [4, 5],
  sqlite: [4, 5],
  mysql: [5, 5],
};

describe.each(TEST_DATABASES)('Statements per write on $name', (db) => {
  let t: TestApp;
  const counter = new StatementCounter();

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_write_statements',
      entities: BOOKSTORE_ENTITIES,
      dataSource: { logger: counter, logging: true },
      controllers: [
        svcController('books', Book),
        svcController('guarded-books', Book, { policy: ({ entity }) => entity?.['title'] !== 'locked' }),
        svcController('listed-books', Book, { filter: { fields: ['pages'] }, sort: { fields: ['pages', 'id'] } }),
        svcController('scoped-books', Book, {
          filter: { apply: ({ context }) => (scoped(context) ? { published: { eq: false } } : undefined) },
        }),
        svcController('batch-books', Book, { filter: { fields: ['pages'] }, batch: { update: true } }),
        svcController('scoped-batch-books', Book, {
          filter: {
            fields: ['pages'],
            apply: ({ context }) => (scoped(context) ? { published: { eq: false } } : undefined),
          },
          batch: { update: true },
        }),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Round trips sent while one request is answered. */
  const measure = async (work: () => Promise<request.Response>, status = 200) => {
    const before = counter.roundTrips;
    expect((await work()).status).toBe(status);
    return counter.roundTrips - before;
  };

  it('sends the expected round trips, and each write stands', async () => {
    const create = await measure(() => request(t.server).post('/books').send({ title: 'Counted' }), 201);
    const id = (await t.dataSource.getRepository(Book).findOneByOrFail({ title: 'Counted' })).id;
    const patch = await measure(() => request(t.server).patch(`/books/${id}`).send({ pages: 2 }));
    const put = await measure(() => request(t.server).put(`/books/${id}`).send({ title: 'Counted', pages: 3 }));
    const guarded = await measure(() => request(t.server).patch(`/guarded-books/${id}`).send({ pages: 4 }));
    const inScope = await measure(() =>
      request(t.server).patch(`/scoped-books/${id}`).set('x-scope', 'published').send({ pages: 5 }),
    );
    expect([create, patch, put, guarded, inScope]).toEqual(EXPECTED[db.name]);
    expect(await t.dataSource.getRepository(Book).findOneByOrFail({ id })).toMatchObject({
      title: 'Counted',
      pages: 5,
    });
  });

  it('changes many rows in one UPDATE that answers them where the database returns rows, as a read then gives them', async () => {
    await t.dataSource.getRepository(Book).save([
      { title: 'Many', pages: 701 },
      { title: 'Many', pages: 701 },
      { title: 'Left', pages: 702 },
    ]);
    let answer!: request.Response;
    const many = await measure(async () => {
      answer = await request(t.server).patch('/batch-books?filter[pages][eq]=701').send({ title: 'Changed' });
      return answer;
    });
    const read = await request(t.server).get('/listed-books?filter[pages][eq]=701&sort=id').expect(200);
    expect(answer.body.total).toBe(2);
    expect(answer.body.items).toEqual(read.body.items);
    expect(read.body.items).toEqual([
      expect.objectContaining({ title: 'Changed', pages: 701 }),
      expect.objectContaining({ title: 'Changed', pages: 701 }),
    ]);
    const inScope = await measure(() =>
      request(t.server)
        .patch('/scoped-batch-books?filter[pages][eq]=701')
        .set('x-scope', 'published')
        .send({ title: 'Again' }),
    );
    expect([many, inScope]).toEqual(EXPECTED_UPDATE_MANY[db.name]);
    expect(await t.dataSource.getRepository(Book).countBy({ title: 'Again' })).toBe(2);
    expect(await t.dataSource.getRepository(Book).countBy({ title: 'Left' })).toBe(1);
  });

  it('refuses an updateMany that moves a row out of the scope, changing nothing', async () => {
    await t.dataSource.getRepository(Book).save([{ title: 'Scoped', pages: 703 }]);
    const res = await request(t.server)
      .patch('/scoped-batch-books?filter[pages][eq]=703')
      .set('x-scope', 'published')
      .send({ published: true });
    expect(res.status).toBe(403);
    expect((await t.dataSource.getRepository(Book).findOneByOrFail({ pages: 703 })).published).toBe(false);
  });

  it('answers a lean write to a missing or soft-deleted row with 404, writing nothing', async () => {
    const row = await t.dataSource.getRepository(Book).save({ title: 'Deleted' });
    await request(t.server).delete(`/books/${row.id}`).expect(204);
    await request(t.server).patch(`/books/${row.id}`).send({ pages: 9 }).expect(404);
    await request(t.server).patch('/books/987654').send({ pages: 9 }).expect(404);
    expect(
      (await t.dataSource.getRepository(Book).findOneOrFail({ where: { id: row.id }, withDeleted: true })).pages,
    ).toBe(0);
  });

  it('serves what the database holds: defaults and generated columns of the returned row', async () => {
    const res = await request(t.server).post('/books').send({ title: 'Defaults' }).expect(201);
    expect(res.body).toMatchObject({ pages: 0, published: false, deletedAt: null });
    expect(typeof res.body.updatedAt).toBe('string');
    const patched = await request(t.server).patch(`/books/${res.body.id}`).send({ pages: 1 }).expect(200);
    expect(patched.body).toMatchObject({ title: 'Defaults', pages: 1 });
    expect(patched.headers['etag']).toEqual(expect.any(String));
    const read = await request(t.server).get(`/books/${res.body.id}`).expect(200);
    expect(read.headers['etag']).toBe(patched.headers['etag']);
  });

  it('reads a row, and a counted page with its total, in one statement each; a page past the end counts apart', async () => {
    const id = (await t.dataSource.getRepository(Book).save({ title: 'Read', pages: 7 })).id;
    expect(await measure(() => request(t.server).get(`/books/${id}`))).toBe(1);
    expect(await measure(() => request(t.server).get('/books?limit=2'))).toBe(1);
    expect(await measure(() => request(t.server).get('/listed-books?limit=2&sort=-pages&filter[pages][gte]=1'))).toBe(
      1,
    );
    const past = await request(t.server).get('/books?limit=2&offset=1000').expect(200);
    const total = (await request(t.server).get('/books?limit=2')).body.total as number;
    expect(past.body).toMatchObject({ items: [], total });
    expect(await measure(() => request(t.server).get('/books?limit=2&offset=1000'))).toBe(2);
  });
});
