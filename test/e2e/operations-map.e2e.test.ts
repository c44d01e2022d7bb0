/** The operations maps (entity whitelist, global switch), the pagination chain per link, and errors.exposeInternals. */
import request from 'supertest';
import { Author, Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { countRows, expectItem, expectList, expectProblem, type Item } from './support/e2e-http';

const BOOKS = 12;

describe.each(TEST_DATABASES)('Operations maps and settings links over HTTP on $name', (db) => {
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_operations_map',
      entities: BOOKSTORE_ENTITIES,
      svc: { operations: { deleteOne: false }, pagination: { defaultLimit: 5, maxLimit: 9 } },
      controllers: [
        svcController('books', Book),
        svcController('read-only-books', Book, { operations: { findMany: true, findOne: true } }),
        svcController('deletable-books', Book, { operations: { findOne: true, deleteOne: true } }),
        svcController('entity-paged-books', Book, { pagination: { defaultLimit: 3 } }),
        svcController('op-paged-books', Book, {
          pagination: { defaultLimit: 3, maxLimit: 8 },
          operations: { findMany: { pagination: { defaultLimit: 2, maxLimit: 4 } } },
        }),
        svcController('authors', Author),
        svcController('exposed-authors', Author, { errors: { exposeInternals: true } }),
        svcController('op-exposed-authors', Author, {
          operations: { createOne: { errors: { exposeInternals: true } }, findOne: true },
        }),
      ],
    });
    await t.dataSource
      .getRepository(Book)
      .insert(Array.from({ length: BOOKS }, (_, i) => ({ title: `Book ${i}`, pages: i })));
    bookId = (await t.dataSource.getRepository(Book).findOneByOrFail({ title: 'Book 0' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('an entity operations map naming only findMany and findOne', () => {
    it('serves those two routes', async () => {
      expectList(await request(t.server).get('/read-only-books'));
      expect(expectItem(await request(t.server).get(`/read-only-books/${bookId}`))['title']).toBe('Book 0');
    });

    it.each([
      ['POST /', 'post', ''],
      ['PUT /:id', 'put', '/:id'],
      ['PATCH /:id', 'patch', '/:id'],
      ['DELETE /:id', 'delete', '/:id'],
      ['PATCH /:id/restore', 'patch', '/:id/restore'],
      ['DELETE /:id/purge', 'delete', '/:id/purge'],
    ] as const)('has no %s route: 404 SVC_ROUTE_NOT_FOUND as problem+json', async (_route, method, suffix) => {
      const url = `/read-only-books${suffix.replace(':id', String(bookId))}`;
      const req = request(t.server);
      const res =
        method === 'post' || method === 'put' || method === 'patch'
          ? await req[method](url).send({ title: 'x' })
          : await req[method](url);
      expectProblem(res, 404, 'SVC_ROUTE_NOT_FOUND');
    });

    it('leaves the rows untouched by the refused calls', async () => {
      expect(await countRows(t.dataSource, Book)).toBe(BOOKS);
      expect(expectItem(await request(t.server).get(`/read-only-books/${bookId}`))).toMatchObject({
        title: 'Book 0',
        deletedAt: null,
      });
    });
  });

  describe('the global operations map { deleteOne: false }', () => {
    it('answers DELETE with 405 SVC_OPERATION_DISABLED and deletes nothing', async () => {
      const problem = expectProblem(await request(t.server).delete(`/books/${bookId}`), 405, 'SVC_OPERATION_DISABLED');
      expect(problem.params).toMatchObject({ operation: 'deleteOne', entity: 'Book' });
      expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: bookId })).deletedAt).toBeNull();
    });

    it('names the methods the path does take in an Allow header (RFC 9110)', async () => {
      const res = await request(t.server).delete(`/books/${bookId}`);
      expect(res.status).toBe(405);
      expect(String(res.headers['allow']).split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT']);
    });

    it('leaves the other operations on', async () => {
      const created = expectItem(await request(t.server).post('/books').send({ title: 'Still writable' }), 201);
      expectItem(
        await request(t.server)
          .patch(`/books/${String(created['id'])}`)
          .send({ pages: 3 }),
      );
      await t.dataSource.getRepository(Book).delete({ id: created['id'] as number });
    });

    it('is overridden by an entity map naming deleteOne', async () => {
      const created = expectItem(await request(t.server).post('/books').send({ title: 'Deletable' }), 201);
      expect((await request(t.server).delete(`/deletable-books/${String(created['id'])}`)).status).toBe(204);
      expectProblem(await request(t.server).get(`/deletable-books/${String(created['id'])}`), 404, 'SVC_NOT_FOUND');
      await t.dataSource.getRepository(Book).delete({ id: created['id'] as number });
    });
  });

  describe('the pagination chain', () => {
    it('global link: SvcModule pagination sets the default and the clamp', async () => {
      expect(expectList(await request(t.server).get('/books'))).toMatchObject({ limit: 5, total: BOOKS });
      expect(expectList(await request(t.server).get('/books?limit=50')).items).toHaveLength(9);
    });

    it('entity link: entity pagination overrides the keys it sets and inherits the rest', async () => {
      const list = expectList(await request(t.server).get('/entity-paged-books'));
      expect(list.limit).toBe(3);
      expect(list.items).toHaveLength(3);
      expect(expectList(await request(t.server).get('/entity-paged-books?limit=50')).limit).toBe(9);
    });

    it('operation link: operations.findMany.pagination overrides the entity and global values', async () => {
      const list = expectList(await request(t.server).get('/op-paged-books'));
      expect(list.limit).toBe(2);
      expect(list.items).toHaveLength(2);
      expect(expectList(await request(t.server).get('/op-paged-books?limit=50')).limit).toBe(4);
    });
  });

  describe('errors.exposeInternals', () => {
    async function duplicateAuthor(path: string, name: string): Promise<Item> {
      expectItem(await request(t.server).post('/authors').send({ name }), 201);
      return expectProblem(await request(t.server).post(path).send({ name }), 409, 'SVC_CONFLICT') as unknown as Item;
    }

    it('off (the default): a conflict body has no internals', async () => {
      const problem = await duplicateAuthor('/authors', 'Hidden');
      expect(problem).not.toHaveProperty('internals');
      // The item code `duplicate` is Svc's; the driver's own words (SQLite, PostgreSQL, MariaDB) are not served.
      expect(JSON.stringify(problem)).not.toMatch(/UNIQUE constraint|duplicate key|Duplicate entry|unique constraint/i);
    });

    it('on at the entity: a conflict body carries the driver detail as internals', async () => {
      const problem = await duplicateAuthor('/exposed-authors', 'Shown');
      expect(problem['internals']).toEqual(expect.objectContaining({ message: expect.any(String) }));
    });

    it('on at the operation: the conflict body of that operation carries internals', async () => {
      const problem = await duplicateAuthor('/op-exposed-authors', 'Shown by op');
      expect(problem['internals']).toEqual(expect.objectContaining({ message: expect.any(String) }));
    });

    it('on: a 404 carries no internals, having no driver cause', async () => {
      const problem = expectProblem(await request(t.server).get('/exposed-authors/999999'), 404, 'SVC_NOT_FOUND');
      expect(problem.internals).toBeUndefined();
    });
  });
});
