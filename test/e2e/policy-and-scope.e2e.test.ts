/** Policy resolution (nearest scope wins) and filter.apply scoping over HTTP. */
import type { PolicyArgs, PolicyFunction, SvcContext } from '@svc/core';
import request from 'supertest';
import { Author, Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { countRows, expectItem, expectList, expectProblem, pluck } from './support/e2e-http';

/** A request header as the policy or apply function sees it through `context.request`. */
function headerOf(context: SvcContext, name: string): string | undefined {
  const value = (context.request as { headers?: Record<string, string | string[] | undefined> } | undefined)?.headers?.[
    name
  ];
  return typeof value === 'string' ? value : undefined;
}

/** Every policy call, with the scope that answered it. */
const calls: { scope: string; args: PolicyArgs }[] = [];

/** A policy that refuses when the request carries `x-deny-<scope>: 1`, recording its arguments. */
function policy(scope: string): PolicyFunction {
  return async (args) => {
    calls.push({ scope, args });
    return headerOf(args.context, `x-deny-${scope}`) !== '1';
  };
}

/** The call recorded for the request tagged `x-trace: <trace>`. */
function traced(trace: string): { scope: string; args: PolicyArgs } {
  const found = calls.filter((call) => headerOf(call.args.context, 'x-trace') === trace);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe.each(TEST_DATABASES)('Policy and scope over HTTP on $name', (db) => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    calls.length = 0;
    t = await createTestApp({
      db,
      suite: 'e2e_policy_scope',
      entities: BOOKSTORE_ENTITIES,
      svc: { policy: policy('global') },
      controllers: [
        svcController('books', Book),
        svcController('entity-books', Book, { policy: policy('entity') }),
        svcController('op-books', Book, {
          policy: policy('entity'),
          operations: {
            findMany: true,
            findOne: { policy: policy('op') },
            patchOne: true,
            deleteOne: { policy: false },
          },
        }),
        svcController('open-books', Book, { operations: { findMany: { policy: false }, findOne: true } }),
        svcController('scoped-books', Book, {
          policy: policy('scoped'),
          filter: { apply: ({ context }) => ({ authorId: { eq: Number(headerOf(context, 'x-tenant') ?? -1) } }) },
        }),
      ],
    });
    const authors = t.dataSource.getRepository(Author);
    ids['ann'] = (await authors.save({ name: 'Ann' })).id;
    ids['bob'] = (await authors.save({ name: 'Bob' })).id;
    const books = t.dataSource.getRepository(Book);
    for (const [title, author] of [
      ['Ann 1', 'ann'],
      ['Ann 2', 'ann'],
      ['Bob 1', 'bob'],
    ] as const) {
      ids[title] = (await books.save({ title, authorId: ids[author]! })).id;
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  const path = (collection: string, title: string) => `/${collection}/${String(ids[title])}`;

  describe('the global policy (SvcModule options)', () => {
    it('guards an entity without a policy of its own', async () => {
      expectList(await request(t.server).get('/books'));
      const problem = expectProblem(
        await request(t.server).get('/books').set('x-deny-global', '1'),
        403,
        'SVC_FORBIDDEN',
      );
      expect(problem.detail).toEqual(expect.any(String));
    });

    it('refuses writes with 403 and writes nothing', async () => {
      const before = await countRows(t.dataSource, Book);
      expectProblem(
        await request(t.server).post('/books').set('x-deny-global', '1').send({ title: 'Refused' }),
        403,
        'SVC_FORBIDDEN',
      );
      expectProblem(
        await request(t.server).patch(path('books', 'Ann 1')).set('x-deny-global', '1').send({ pages: 99 }),
        403,
        'SVC_FORBIDDEN',
      );
      expectProblem(
        await request(t.server).put(path('books', 'Ann 1')).set('x-deny-global', '1').send({ title: 'x' }),
        403,
        'SVC_FORBIDDEN',
      );
      expectProblem(
        await request(t.server).delete(path('books', 'Ann 1')).set('x-deny-global', '1'),
        403,
        'SVC_FORBIDDEN',
      );
      expect(await countRows(t.dataSource, Book)).toBe(before);
      const row = await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids['Ann 1']! });
      expect(row).toMatchObject({ title: 'Ann 1', pages: 0, deletedAt: null });
    });
  });

  describe('the entity policy', () => {
    it('overrides the global one', async () => {
      expectList(await request(t.server).get('/entity-books').set('x-deny-global', '1'));
      expectProblem(await request(t.server).get('/entity-books').set('x-deny-entity', '1'), 403, 'SVC_FORBIDDEN');
    });
  });

  describe('operations.<id>.policy', () => {
    it('overrides the entity policy for that operation only', async () => {
      expectItem(await request(t.server).get(path('op-books', 'Ann 1')).set('x-deny-entity', '1'));
      expectProblem(await request(t.server).get(path('op-books', 'Ann 1')).set('x-deny-op', '1'), 403, 'SVC_FORBIDDEN');
      expectProblem(await request(t.server).get('/op-books').set('x-deny-entity', '1'), 403, 'SVC_FORBIDDEN');
      expectProblem(
        await request(t.server).patch(path('op-books', 'Ann 1')).set('x-deny-entity', '1').send({ pages: 1 }),
        403,
        'SVC_FORBIDDEN',
      );
    });

    it('policy: false opts the operation out of every policy', async () => {
      const book = expectItem(await request(t.server).post('/books').send({ title: 'Opt out' }), 201);
      const res = await request(t.server)
        .delete(`/op-books/${String(book['id'])}`)
        .set('x-deny-entity', '1')
        .set('x-deny-global', '1');
      expect(res.status).toBe(204);
    });

    it('policy: false on findMany leaves the global policy on the other operations', async () => {
      expectList(await request(t.server).get('/open-books').set('x-deny-global', '1'));
      expectProblem(
        await request(t.server).get(path('open-books', 'Ann 1')).set('x-deny-global', '1'),
        403,
        'SVC_FORBIDDEN',
      );
    });
  });

  describe('the arguments a policy receives', () => {
    it('on findOne: the operation, the row, the params and the request', async () => {
      expectItem(await request(t.server).get(path('entity-books', 'Ann 2')).set('x-trace', 'find-one'));
      const { scope, args } = traced('find-one');
      expect(scope).toBe('entity');
      expect(args.operation).toBe('findOne');
      expect(args.entity).toMatchObject({ id: ids['Ann 2'], title: 'Ann 2', authorId: ids['ann'] });
      expect(Object.keys(args.params)).toEqual(['id']);
      expect(String(args.params['id'])).toBe(String(ids['Ann 2']));
      expect((args.context.request as { method?: string }).method).toBe('GET');
    });

    it('on patchOne: the pre-read row (before the write) and the body', async () => {
      expectItem(
        await request(t.server).patch(path('entity-books', 'Ann 2')).set('x-trace', 'patch-one').send({ pages: 42 }),
      );
      const { args } = traced('patch-one');
      expect(args.operation).toBe('patchOne');
      expect(args.entity).toMatchObject({ id: ids['Ann 2'], pages: 0 });
      expect(args.body).toMatchObject({ pages: 42 });
      expect(String(args.params['id'])).toBe(String(ids['Ann 2']));
    });

    it('on createOne: the body and no row', async () => {
      expectItem(
        await request(t.server).post('/entity-books').set('x-trace', 'create-one').send({ title: 'Traced' }),
        201,
      );
      const { args } = traced('create-one');
      expect(args.operation).toBe('createOne');
      expect(args.entity).toBeUndefined();
      expect(args.body).toMatchObject({ title: 'Traced' });
      expect(args.params).toEqual({});
    });

    it('on deleteOne: the row about to be deleted', async () => {
      const book = expectItem(await request(t.server).post('/books').send({ title: 'Traced delete' }), 201);
      expect(
        (
          await request(t.server)
            .delete(`/entity-books/${String(book['id'])}`)
            .set('x-trace', 'delete-one')
        ).status,
      ).toBe(204);
      const { args } = traced('delete-one');
      expect(args.operation).toBe('deleteOne');
      expect(args.entity).toMatchObject({ id: book['id'], title: 'Traced delete', deletedAt: null });
    });

    it('on findMany: the operation and no row', async () => {
      expectList(await request(t.server).get('/entity-books').set('x-trace', 'find-many'));
      const { args } = traced('find-many');
      expect(args.operation).toBe('findMany');
      expect(args.entity).toBeUndefined();
    });
  });

  describe('filter.apply scoping on Book.authorId by the x-tenant header', () => {
    const as = (tenant: string) => ({ 'x-tenant': String(ids[tenant]) });

    it('scopes the list and its total', async () => {
      const list = expectList(await request(t.server).get('/scoped-books?sort=title').set(as('ann')));
      expect(pluck(list.items, 'title')).toEqual(['Ann 1', 'Ann 2']);
      expect(list.total).toBe(2);
      expect(pluck(expectList(await request(t.server).get('/scoped-books').set(as('bob'))).items, 'title')).toEqual([
        'Bob 1',
      ]);
    });

    it('lets a client filter narrow inside the scope, never widen it', async () => {
      const res = await request(t.server)
        .get('/scoped-books?filter[or][0][title][eq]=Bob%201&filter[or][1][title][eq]=Ann%201')
        .set(as('ann'));
      expect(pluck(expectList(res).items, 'title')).toEqual(['Ann 1']);
    });

    it('reads an in-scope row and answers 404, not 403, to an out-of-scope one', async () => {
      expectItem(await request(t.server).get(path('scoped-books', 'Ann 1')).set(as('ann')));
      expectProblem(await request(t.server).get(path('scoped-books', 'Bob 1')).set(as('ann')), 404, 'SVC_NOT_FOUND');
    });

    it('answers 404 to writes of an out-of-scope row, leaving it unchanged', async () => {
      const before = await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids['Bob 1']! });
      expectProblem(
        await request(t.server).patch(path('scoped-books', 'Bob 1')).set(as('ann')).send({ pages: 7 }),
        404,
        'SVC_NOT_FOUND',
      );
      expectProblem(
        await request(t.server).put(path('scoped-books', 'Bob 1')).set(as('ann')).send({ title: 'Taken' }),
        404,
        'SVC_NOT_FOUND',
      );
      expectProblem(await request(t.server).delete(path('scoped-books', 'Bob 1')).set(as('ann')), 404, 'SVC_NOT_FOUND');
      expect(await t.dataSource.getRepository(Book).findOneByOrFail({ id: ids['Bob 1']! })).toEqual(before);
    });

    it('answers 404 to restore and purge of an out-of-scope deleted row', async () => {
      const res = await request(t.server)
        .post('/scoped-books')
        .set(as('bob'))
        .send({ title: 'Bob gone', authorId: ids['bob'] });
      const gone = expectItem(res, 201);
      expect(
        (
          await request(t.server)
            .delete(`/scoped-books/${String(gone['id'])}`)
            .set(as('bob'))
        ).status,
      ).toBe(204);
      expectProblem(
        await request(t.server)
          .patch(`/scoped-books/${String(gone['id'])}/restore`)
          .set(as('ann')),
        404,
        'SVC_NOT_FOUND',
      );
      expectProblem(
        await request(t.server)
          .delete(`/scoped-books/${String(gone['id'])}/purge`)
          .set(as('ann')),
        404,
        'SVC_NOT_FOUND',
      );
      expect(
        expectItem(
          await request(t.server)
            .patch(`/scoped-books/${String(gone['id'])}/restore`)
            .set(as('bob')),
        )['title'],
      ).toBe('Bob gone');
    });

    it('writes an in-scope row', async () => {
      const patched = expectItem(
        await request(t.server).patch(path('scoped-books', 'Ann 1')).set(as('ann')).send({ pages: 11 }),
      );
      expect(patched['pages']).toBe(11);
    });

    it('answers 404 (scope) rather than 403 (policy) for an out-of-scope row the policy would refuse', async () => {
      const deny = { ...as('ann'), 'x-deny-scoped': '1' };
      expectProblem(await request(t.server).get(path('scoped-books', 'Bob 1')).set(deny), 404, 'SVC_NOT_FOUND');
      expectProblem(await request(t.server).get(path('scoped-books', 'Ann 1')).set(deny), 403, 'SVC_FORBIDDEN');
    });
  });

  it('keeps every policy-refused row where it was', async () => {
    expect(await t.dataSource.getRepository(Book).count({ where: { title: 'Refused' }, withDeleted: true })).toBe(0);
  });
});
