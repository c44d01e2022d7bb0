/**
 * Handlers written the way the requirement puts it: `context.repository`'s methods take the context back as their
 * last argument (`findOne(id, context)`, `findMany(query, context)`, `create(body, context)`, `update(id, changes,
 * context)`, `delete(id, context)`), beside the adapter's own argument objects. Same scope, soft-delete view and
 * transaction, on every database; two tenants never see each other's rows.
 */
import request from 'supertest';
import type { EntityConfig, SvcContext, SvcOperationInput } from '@svc/core';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const repo = (context: SvcContext) => context.repository!;
/** A tenant per request, from `x-tenant`; each sees only its own books (by title prefix). */
const tenantOf = (context: SvcContext) =>
  String((context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.['x-tenant'] ?? 'a');

const BOOKS: EntityConfig = {
  filter: { fields: ['title', 'pages'], apply: ({ context }) => ({ title: { startsWith: `${tenantOf(context)}:` } }) },
  sort: { fields: ['title', 'pages', 'id'] },
  operations: {
    findOne: true,
    createOne: true,
    // The list, written as a handler over the resolved plan.
    findMany: { handler: (input, context) => repo(context).findMany(input.query as never, context) },
    // A read by a query of its own, as service.findMany takes one.
    thickMany: {
      kind: 'read',
      cardinality: 'many',
      handler: (_input, context) =>
        repo(context).findMany({ filter: { pages: { gte: 300 } }, sort: '-pages', limit: 2 }, context),
    },
    // Bad input through the call shape: a query key findMany does not take, an id that is not an integer.
    typoMany: {
      kind: 'read',
      cardinality: 'many',
      handler: (_input, context) => repo(context).findMany({ filtr: { pages: { gte: 1 } } }, context),
    },
    wordOne: {
      kind: 'read',
      handler: async (_input, context) => repo(context).findOne('not-a-number', context),
    },
    retitleOne: {
      meta: { routes: { method: 'POST', path: ':id/retitle', successStatus: 200 } },
      handler: async (input: SvcOperationInput, context) => {
        const before = await repo(context).findOne(input.id as number, context);
        if (!before) return null;
        const body = input.body as { title: string; fail?: boolean };
        const stored = await repo(context).update(input.id as number, { title: body.title }, context);
        if (body.fail) throw new Error('after the update');
        return stored;
      },
    },
    copyOne: {
      meta: { routes: { method: 'POST', path: ':id/copy', successStatus: 201 } },
      handler: async (input, context) => {
        const original = await repo(context).findOne(input.key!, context);
        const prefix = (input.body as { prefix?: string } | undefined)?.prefix ?? '';
        return repo(context).create({ title: `${prefix}${String(original!['title'])} (copy)`, pages: 1 }, context);
      },
    },
    dropOne: {
      meta: { routes: { method: 'POST', path: ':id/drop' } },
      handler: async (input, context) => {
        await repo(context).delete(input.id as number, context);
      },
    },
  },
};

/** An entity that serves no findMany: a query has no allowlists to be read by. */
const NO_LIST: EntityConfig = {
  operations: {
    findOne: true,
    countOne: {
      meta: { routes: { method: 'POST', path: 'count' } },
      handler: (_input, context) => repo(context).findMany({ limit: 1 }, context),
    },
  },
};

describe.each(TEST_DATABASES)('context.repository in the call shape with the context last, on $name', (db) => {
  let t: TestApp;
  let ids: Record<string, number>;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_repository_call_shape',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book, BOOKS), svcController('unlisted-books', Book, NO_LIST)],
    });
    const rows = await t.dataSource.getRepository(Book).save([
      { title: 'a:Dune', pages: 412 },
      { title: 'a:Emma', pages: 300 },
      { title: 'a:Ubik', pages: 202 },
      { title: 'b:Solaris', pages: 500 },
    ]);
    ids = Object.fromEntries(rows.map((row) => [row.title, row.id]));
  });

  afterAll(async () => {
    await t?.close();
  });

  const as = (tenant: string) => ({ 'x-tenant': tenant });

  it('lists through findMany(input.query, context): the client filter, sort and paging, within the scope', async () => {
    const res = await request(t.server).get('/books?sort=-pages&limit=2').set(as('a')).expect(200);
    expect(res.body.items.map((item: { title: string }) => item.title)).toEqual(['a:Dune', 'a:Emma']);
    expect(res.body.total).toBe(3);
  });

  it('reads by a query of its own through findMany(query, context), within the scope', async () => {
    const res = await request(t.server).post('/books/thickMany').set(as('a')).expect(201);
    expect(res.body.items.map((item: { title: string }) => item.title)).toEqual(['a:Dune', 'a:Emma']);
    const other = await request(t.server).post('/books/thickMany').set(as('b')).expect(201);
    expect(other.body.items.map((item: { title: string }) => item.title)).toEqual(['b:Solaris']);
  });

  it('updates through findOne(id, context) and update(id, changes, context), answering the stored row', async () => {
    const res = await request(t.server)
      .post(`/books/${ids['a:Ubik']}/retitle`)
      .set(as('a'))
      .send({ title: 'a:Ubik, revised' })
      .expect(200);
    expect(res.body).toMatchObject({ id: ids['a:Ubik'], title: 'a:Ubik, revised', pages: 202 });
  });

  it("answers another tenant's row as not there (404), writing nothing", async () => {
    const res = await request(t.server)
      .post(`/books/${ids['b:Solaris']}/retitle`)
      .set(as('a'))
      .send({ title: 'a:stolen' });
    expect(res.status).toBe(404);
    expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids['b:Solaris'] })).title).toBe('b:Solaris');
  });

  it('rolls the update back when the handler throws after it', async () => {
    const res = await request(t.server)
      .post(`/books/${ids['a:Emma']}/retitle`)
      .set(as('a'))
      .send({ title: 'a:never', fail: true });
    expect(res.status).toBe(500);
    expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids['a:Emma'] })).title).toBe('a:Emma');
  });

  it('creates through create(body, context), answering the stored row, within the scope check', async () => {
    const res = await request(t.server).post(`/books/${ids['a:Dune']}/copy`).set(as('a')).expect(201);
    expect(res.body).toMatchObject({ title: 'a:Dune (copy)', pages: 1 });
    expect(typeof res.body.id).toBe('number');
    // A copy that would land outside tenant b's scope is refused, and nothing is written.
    const refused = await request(t.server).post(`/books/${ids['b:Solaris']}/copy`).set(as('b')).send({ prefix: 'a:' });
    expect(refused.status).toBe(403);
    expect(await t.dataSource.getRepository(Book).countBy({ title: 'a:b:Solaris (copy)' })).toBe(0);
  });

  it('refuses a query key findMany does not take, naming it, and an id that is not one, naming id', async () => {
    const typo = await request(t.server).post('/books/typoMany').set(as('a'));
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', errors: [{ param: 'filtr' }] });
    const word = await request(t.server).post('/books/wordOne').set(as('a'));
    expect(word.status).toBe(400);
    expect(word.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'id', code: 'invalid_value' }] });
  });

  it('refuses findMany(query) on an entity without findMany, naming the handler', async () => {
    const res = await request(t.server).post('/unlisted-books/count');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('SVC_CONFIG_INVALID');
    expect(res.body.detail).toContain('operations.countOne.handler');
  });

  it('soft-deletes through delete(id, context); the row is then gone from reads', async () => {
    const created = await t.dataSource.getRepository(Book).save({ title: 'a:Temporary', pages: 5 });
    await request(t.server).post(`/books/${created.id}/drop`).set(as('a')).expect(204);
    await request(t.server).get(`/books/${created.id}`).set(as('a')).expect(404);
    const row = await t.dataSource.getRepository(Book).findOne({ where: { id: created.id }, withDeleted: true });
    expect(row?.deletedAt).not.toBeNull();
    // Another tenant's row: 404, and it stays.
    await request(t.server).post(`/books/${ids['b:Solaris']}/drop`).set(as('a')).expect(404);
  });
});
