/** withListMeta, the built-in handlers, and custom pagination strategies registered on SvcOptions. */
import { builtInHandlers, ConfigurationException, createSvc, withListMeta, type PaginationStrategy } from '@svc/core';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

/** A custom strategy: the first `limit` rows (default 3), reporting its name in meta. */
const firstRows: PaginationStrategy = {
  name: 'first-rows',
  params: ['limit'],
  plan: ({ params }) => {
    const limit = Number(params.get('limit') ?? 3);
    return {
      limit,
      offset: 0,
      reportedLimit: limit,
      reportedOffset: 0,
      finish: (rows) => ({ rows, meta: { strategy: 'first-rows' } }),
    };
  },
};

describe.each(TEST_DATABASES)('list meta on $name', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_list_meta',
      entities: BOOKSTORE_ENTITIES,
      svc: { paginationStrategies: [firstRows] },
      controllers: [
        svcController('counted', Book, {
          operations: {
            findMany: {
              handler: withListMeta(builtInHandlers.findMany, async (result) => ({ onPage: result.entities.length })),
            },
          },
        }),
        svcController('layered', Book, {
          operations: {
            findMany: {
              handler: withListMeta(
                async (input, context) => ({
                  ...(await builtInHandlers.findMany(input, context)),
                  meta: { a: 1, b: 1 },
                }),
                () => ({ b: 2 }),
              ),
            },
          },
        }),
        svcController('silent', Book, {
          operations: { findMany: { handler: withListMeta(builtInHandlers.findMany, () => ({})) } },
        }),
        svcController('broken', Book, {
          operations: {
            findMany: {
              handler: withListMeta(
                () => ({ rows: [] }),
                () => ({ x: 1 }),
              ),
            },
          },
        }),
        svcController('custom', Book, { pagination: { strategy: 'first-rows' } }),
      ],
    });
    await t.dataSource.getRepository(Book).save(Array.from({ length: 8 }, (_, i) => ({ title: `Book ${i}` })));
  });
  afterAll(() => t.close());

  it('adds the contributor keys to meta over a built-in handler', async () => {
    const response = await request(t.server).get('/counted?limit=5').expect(200);
    expect(response.body).toMatchObject({ limit: 5, offset: 0, total: 8, meta: { onPage: 5 } });
    expect(response.body.items).toHaveLength(5);
  });

  it("lets the contributor's keys win over the handler's own meta, passing the others through", async () => {
    expect((await request(t.server).get('/layered').expect(200)).body.meta).toEqual({ a: 1, b: 2 });
  });

  it('leaves meta out when nothing is contributed', async () => {
    expect((await request(t.server).get('/silent').expect(200)).body).not.toHaveProperty('meta');
  });

  it('answers SVC_CONFIG_INVALID naming the operation for a handler that does not return { entities, total }', async () => {
    const response = await request(t.server).get('/broken').expect(500);
    expect(response.body.code).toBe('SVC_CONFIG_INVALID');
    expect(response.body.detail).toContain('operations.findMany.handler');
  });

  it('pages with a registered custom strategy, which refuses the parameters it does not take', async () => {
    const response = await request(t.server).get('/custom?limit=2').expect(200);
    expect(response.body).toMatchObject({ limit: 2, offset: 0, total: 8, meta: { strategy: 'first-rows' } });
    expect(response.body.items).toHaveLength(2);
    const offset = await request(t.server).get('/custom?offset=1').expect(400);
    expect(offset.body.errors[0].param).toBe('offset');
  });
});

describe('custom strategy registration', () => {
  it('refuses a strategy that reuses a built-in name, or takes a parameter the grammar does not have', () => {
    expect(() => createSvc({ paginationStrategies: [{ ...firstRows, name: 'offset' }] })).toThrow(
      ConfigurationException,
    );
    expect(() => createSvc({ paginationStrategies: [{ ...firstRows, params: ['size'] }] })).toThrow(
      /not a pagination parameter/,
    );
  });
});
