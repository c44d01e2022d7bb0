/** The offset, page and none pagination strategies; an unregistered strategy name is refused at boot. */
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

describe.each(TEST_DATABASES)('pagination strategies on $name', (db) => {
  let t: TestApp;
  const get = (path: string) => request(t.server).get(path);
  const ids = (body: { items: { pages: number }[] }) => body.items.map((item) => item.pages);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_pagination',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('offset-books', Book, { sort: { default: ['pages'] } }),
        svcController('paged-books', Book, {
          pagination: { strategy: 'page', defaultLimit: 4, maxLimit: 6 },
          sort: { default: ['pages'] },
        }),
        svcController('all-books', Book, {
          operations: { findMany: { pagination: { strategy: 'none', count: false } }, findOne: true },
          sort: { default: ['-pages'] },
          include: { fields: ['author'] },
          search: {},
        }),
        svcController('authors', Author),
      ],
    });
    const author = await t.dataSource.getRepository(Author).save({ name: 'Ann' });
    await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 25 }, (_, i) => ({ title: `Book ${i}`, pages: i, author })));
  });
  afterAll(() => t.close());

  describe('page', () => {
    it('normalizes page[number] and page[size] to limit and offset, and reports them', async () => {
      const response = await get('/paged-books?page[number]=2&page[size]=5').expect(200);
      expect(response.body).toMatchObject({ limit: 5, offset: 5, total: 25 });
      expect(ids(response.body)).toEqual([5, 6, 7, 8, 9]);
    });

    it('defaults to page 1 of defaultLimit and clamps page[size] to maxLimit', async () => {
      expect((await get('/paged-books').expect(200)).body).toMatchObject({ limit: 4, offset: 0 });
      expect((await get('/paged-books?page[size]=50').expect(200)).body).toMatchObject({ limit: 6 });
    });

    it.each(['0', 'abc', '-1', '1.5'])('refuses page[number]=%s with SVC_QUERY_INVALID naming it', async (value) => {
      const response = await get(`/paged-books?page[number]=${value}`).expect(400);
      expect(response.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'page[number]' }] });
    });

    it('refuses limit and offset, which the page strategy does not take', async () => {
      const response = await get('/paged-books?limit=5&offset=1').expect(400);
      expect(response.body.code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
      expect(response.body.errors.map((error: { param: string }) => error.param).sort()).toEqual(['limit', 'offset']);
    });
  });

  describe('offset', () => {
    it('refuses page[...], cursor and since, naming each', async () => {
      const response = await get('/offset-books?page[number]=1&cursor=x&since=y').expect(400);
      expect(response.body.code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
      expect(response.body.errors.map((error: { param: string }) => error.param).sort()).toEqual([
        'cursor',
        'page[number]',
        'since',
      ]);
    });
  });

  describe('none', () => {
    it('serves the whole match set with limit 2147483647 and offset 0', async () => {
      const response = await get('/all-books').expect(200);
      expect(response.body).toMatchObject({ limit: 2147483647, offset: 0, total: null });
      expect(response.body.items).toHaveLength(25);
      expect(ids(response.body)[0]).toBe(24);
    });

    it.each(['limit=5', 'offset=5'])('refuses %s with SVC_QUERY_UNSUPPORTED_PARAM naming it', async (param) => {
      const response = await get(`/all-books?${param}`).expect(400);
      expect(response.body).toMatchObject({
        code: 'SVC_QUERY_UNSUPPORTED_PARAM',
        errors: [{ param: param.split('=')[0] }],
      });
    });

    it('keeps filter, sort, include and search working', async () => {
      const response = await get('/all-books?filter[pages][lt]=3&sort=pages&include=author&search[query]=book').expect(
        200,
      );
      expect(ids(response.body)).toEqual([0, 1, 2]);
      expect(response.body.items[0].author).toMatchObject({ name: 'Ann' });
    });
  });
});

describe('strategies not registered', () => {
  it.each(['custom'])("refuses pagination.strategy '%s' at boot", async (strategy) => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_pagination_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', Book, { pagination: { strategy } })],
    });
    expect(error.message).toContain('pagination.strategy');
  });
});
