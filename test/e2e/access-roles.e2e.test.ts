/**
 * Access per caller over REST (`access`), two tenants by three roles on each database: a column a role may not read
 * escapes through no item, include, filter, sort, search, select, aggregate, ETag or suggestion; a column it may not
 * write is a 400 naming it in a one-row write and a batch; a write it may not make is a 403; related rows follow their
 * own entity's policy and role; and the result cache never answers one role with another's entry.
 */
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { validateOpenApi } from '../support/openapi-checks';
import { SvcRegistry } from '@svc/nestjs';
import { createTestApp, bootstrapFailure, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectItem, expectList, expectProblem } from './support/e2e-http';
import {
  ACCESS_ENTITIES,
  AcAuthor,
  AcBook,
  AcReview,
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  REVIEW_CONFIG,
  tenantOf,
} from './support/access-fixtures';

describe.each(TEST_DATABASES)('Access per caller over REST on $name', (db) => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_access_roles',
      entities: ACCESS_ENTITIES,
      controllers: [
        svcController('books', AcBook, BOOK_CONFIG),
        svcController('cached-books', AcBook, { ...BOOK_CONFIG, cache: { ttl: 60 } }),
        svcController('authors', AcAuthor, AUTHOR_CONFIG),
        svcController('reviews', AcReview, REVIEW_CONFIG),
      ],
      svc: { cacheKey: (context) => tenantOf(context) },
    });
    const authors = t.dataSource.getRepository(AcAuthor);
    ids['ann'] = (await authors.save({ tenant: 'a', name: 'Ann', email: 'ann@a.test' })).id;
    ids['bob'] = (await authors.save({ tenant: 'b', name: 'Bob', email: 'bob@b.test' })).id;
    const books = t.dataSource.getRepository(AcBook);
    ids['a1'] = (await books.save({ tenant: 'a', title: 'A one', price: 20, cost: 7, authorId: ids['ann']! })).id;
    ids['a2'] = (await books.save({ tenant: 'a', title: 'A two', price: 30, cost: 9, authorId: ids['ann']! })).id;
    ids['b1'] = (await books.save({ tenant: 'b', title: 'B one', price: 40, cost: 11, authorId: ids['bob']! })).id;
    const reviews = t.dataSource.getRepository(AcReview);
    ids['ra'] = (await reviews.save({ tenant: 'a', rating: 4, bookId: ids['a1']! })).id;
    ids['rb'] = (await reviews.save({ tenant: 'b', rating: 2, bookId: ids['b1']! })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const as = (tenant: string, role: string | undefined, req: request.Test) =>
    role === undefined ? req.set('x-tenant', tenant) : req.set('x-tenant', tenant).set('x-role', role);
  const get = (tenant: string, role: string | undefined, path: string) => as(tenant, role, request(t.server).get(path));
  const bookRow = (name: string) => t.dataSource.getRepository(AcBook).findOneByOrFail({ id: ids[name]! });

  describe('reading', () => {
    it.each([
      ['a', 'reader'],
      ['a', 'editor'],
      ['b', 'reader'],
    ])('tenant %s as %s: no item carries the cost, and only the tenant’s rows come back', async (tenant, role) => {
      const list = expectList(await get(tenant, role, '/books'));
      expect(list.items.length).toBeGreaterThan(0);
      for (const item of list.items) {
        expect(item).not.toHaveProperty('cost');
        expect(item['tenant']).toBe(tenant);
      }
      const one = expectItem(await get(tenant, role, `/books/${ids[tenant === 'a' ? 'a1' : 'b1']}`));
      expect(one).not.toHaveProperty('cost');
      expect(one).toHaveProperty('price');
    });

    it('an admin, and a caller with no role, read the cost', async () => {
      expect(expectItem(await get('a', 'admin', `/books/${ids['a1']}`))['cost']).toBe(7);
      expect(expectItem(await get('a', undefined, `/books/${ids['a1']}`))['cost']).toBe(7);
      expectProblem(await get('a', 'admin', `/books/${ids['b1']}`), 404, 'SVC_NOT_FOUND');
    });

    it.each([
      ['filter', '/books?filter[cost][gt]=0'],
      ['sort', '/books?sort=-cost'],
      ['select', '/books?select=title,cost'],
      ['aggregate', '/books/aggregate?sum=cost'],
      ['groupBy', '/books/aggregate?groupBy=cost'],
      ['count', '/books/count?filter[cost][gt]=0'],
    ])('a reader’s %s on the cost is a 400 naming it as unknown', async (_, path) => {
      const problem = expectProblem(await get('a', 'reader', path), 400, 'SVC_QUERY_INVALID');
      expect(JSON.stringify(problem)).toContain('cost');
      expect(problem.errors?.length).toBeGreaterThan(0);
      // The admin asks the same and is answered.
      expect((await get('a', 'admin', path)).status).toBe(200);
    });

    it('suggestions never name a column the caller may not read', async () => {
      const reader = expectProblem(await get('a', 'reader', '/books?filter[cots][eq]=1'), 400, 'SVC_QUERY_INVALID');
      expect(JSON.stringify(reader)).not.toMatch(/'cost'/);
      const admin = expectProblem(await get('a', 'admin', '/books?filter[cots][eq]=1'), 400, 'SVC_QUERY_INVALID');
      expect(JSON.stringify(admin)).toMatch(/'cost'/);
    });

    it('an ETag is the role’s own: a reader’s tag does not match an admin’s representation', async () => {
      const reader = await get('a', 'reader', `/books/${ids['a1']}`);
      const admin = await get('a', 'admin', `/books/${ids['a1']}`);
      expect(reader.headers['etag']).toBeDefined();
      expect(reader.headers['etag']).not.toBe(admin.headers['etag']);
      const revalidated = await get('a', 'admin', `/books/${ids['a1']}`).set('If-None-Match', reader.headers['etag']!);
      expect(revalidated.status).toBe(200);
      expect(revalidated.body.cost).toBe(7);
    });
  });

  describe('related rows', () => {
    it('an include two levels deep serves each target’s columns for the caller’s role there', async () => {
      const reader = expectList(await get('a', 'reader', '/reviews?include=book.author'));
      const book = reader.items[0]!['book'] as Record<string, unknown>;
      expect(book).not.toHaveProperty('cost');
      expect(book['author']).not.toHaveProperty('email');
      expect((book['author'] as Record<string, unknown>)['name']).toBe('Ann');
      const admin = expectList(await get('a', 'admin', '/reviews?include=book.author'));
      const adminBook = admin.items[0]!['book'] as Record<string, unknown>;
      expect(adminBook['cost']).toBe(7);
      expect((adminBook['author'] as Record<string, unknown>)['email']).toBe('ann@a.test');
    });

    it('select[<include>] naming a column the role may not read there is a 400', async () => {
      const problem = expectProblem(
        await get('a', 'reader', '/books?include=author&select[author]=name,email'),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(JSON.stringify(problem)).toContain('email');
    });

    it('a caller whose book policy refuses reads gets no book through an include or a relation path', async () => {
      expectProblem(await get('a', 'blocked', '/books'), 403, 'SVC_FORBIDDEN');
      const list = expectList(await get('a', 'blocked', '/reviews?include=book'));
      expect(list.items.length).toBe(1);
      expect(list.items[0]!['book']).toBeNull();
      // A relation path through the refused entity matches nothing, so it cannot probe the books either.
      expect(expectList(await get('a', 'blocked', '/reviews?filter[book.title][eq]=A one')).items).toEqual([]);
      expect(expectList(await get('a', 'reader', '/reviews?filter[book.title][eq]=A one')).items.length).toBe(1);
    });

    it.each([
      ['sort', '/reviews?sort=book.cost', 'field_not_sortable'],
      ['groupBy', '/reviews/aggregate?groupBy=book.cost', 'field_not_groupable'],
    ])('a %s through a relation to a column the role may not read there is a 400', async (param, path, code) => {
      const problem = expectProblem(await get('a', 'reader', path), 400, 'SVC_QUERY_INVALID');
      expect(problem.errors).toEqual([expect.objectContaining({ param, code })]);
      expect((await get('a', 'admin', path)).status).toBe(200);
      expect(
        (
          await get(
            'a',
            'reader',
            path
              .replace('book.cost', 'book.title')
              .replace('book.title', param === 'groupBy' ? 'book.status' : 'book.title'),
          )
        ).status,
      ).toBe(200);
    });

    it('a search over a related column the role may not read there matches nothing through it, and fails nothing', async () => {
      const reader = expectList(await get('a', 'reader', '/books?search[query]=ann@a.test'));
      expect(reader.items).toEqual([]);
      const admin = expectList(await get('a', 'admin', '/books?search[query]=ann@a.test'));
      expect(admin.items.length).toBeGreaterThan(0);
      expect(expectList(await get('a', 'reader', '/books?search[query]=A one')).items.length).toBe(1);
    });

    it('a relation path to a column the role may not read on the target is a 400', async () => {
      const problem = expectProblem(
        await get('a', 'reader', '/reviews?filter[book.cost][gt]=0'),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(JSON.stringify(problem)).toContain('book.cost');
      expect(expectList(await get('a', 'admin', '/reviews?filter[book.cost][gt]=0')).items.length).toBe(1);
    });
  });

  describe('writing', () => {
    it('an editor updates the title, and writing the status or the cost is a 400 naming it; nothing is written', async () => {
      const ok = expectItem(
        await as('a', 'editor', request(t.server).patch(`/books/${ids['a2']}`)).send({ title: 'A two, edited' }),
      );
      expect(ok['title']).toBe('A two, edited');
      expect(ok).not.toHaveProperty('cost');
      for (const field of ['status', 'cost']) {
        const res = await as('a', 'editor', request(t.server).patch(`/books/${ids['a2']}`)).send({
          title: 'never',
          [field]: field === 'cost' ? 1 : 'live',
        });
        const problem = expectProblem(res, 400, 'SVC_VALIDATION_FAILED');
        expect(JSON.stringify(problem.errors)).toContain(field);
      }
      const row = await bookRow('a2');
      expect([row.title, row.status, row.cost]).toEqual(['A two, edited', 'draft', 9]);
    });

    it('an editor’s PUT replaces only what the editor writes: the status and the cost keep their values', async () => {
      await t.dataSource.getRepository(AcBook).update({ id: ids['a2']! }, { status: 'live' });
      const res = await as('a', 'editor', request(t.server).put(`/books/${ids['a2']}`)).send({
        title: 'A two',
        price: 31,
      });
      expect(expectItem(res)['price']).toBe(31);
      const row = await bookRow('a2');
      expect([row.title, row.status, row.cost, row.tenant]).toEqual(['A two', 'live', 9, 'a']);
      await t.dataSource.getRepository(AcBook).update({ id: ids['a2']! }, { status: 'draft', title: 'A two, edited' });
    });

    it('an editor creates without the cost, one row or a batch; the cost in either is a 400', async () => {
      const created = expectItem(
        await as('a', 'editor', request(t.server).post('/books')).send({
          title: 'E new',
          price: 5,
          authorId: ids['ann'],
        }),
        201,
      );
      expect(created).not.toHaveProperty('cost');
      const before = await t.dataSource.getRepository(AcBook).count();
      expectProblem(
        await as('a', 'editor', request(t.server).post('/books')).send({ title: 'E cost', price: 5, cost: 1 }),
        400,
        'SVC_VALIDATION_FAILED',
      );
      const batch = expectProblem(
        await as('a', 'editor', request(t.server).post('/books/batch')).send([
          { title: 'ok', price: 1 },
          { title: 'bad', price: 1, status: 'live' },
        ]),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(JSON.stringify(batch.errors)).toContain('[1].status');
      expect(await t.dataSource.getRepository(AcBook).count()).toBe(before);
    });

    it('a reader may not write, and an editor may not delete: 403, and the row stays', async () => {
      expectProblem(
        await as('a', 'reader', request(t.server).patch(`/books/${ids['a1']}`)).send({ title: 'x' }),
        403,
        'SVC_FORBIDDEN',
      );
      expectProblem(
        await as('a', 'reader', request(t.server).post('/books')).send({ title: 'x', price: 1 }),
        403,
        'SVC_FORBIDDEN',
      );
      expectProblem(await as('a', 'editor', request(t.server).delete(`/books/${ids['a1']}`)), 403, 'SVC_FORBIDDEN');
      expectProblem(
        await as('a', 'reader', request(t.server).patch('/books?filter[id][eq]=' + ids['a1'])).send({ title: 'x' }),
        403,
        'SVC_FORBIDDEN',
      );
      expect((await bookRow('a1')).title).toBe('A one');
    });

    it('an admin writes the status and the cost; another tenant’s row stays out of reach', async () => {
      const res = await as('a', 'admin', request(t.server).patch(`/books/${ids['a1']}`)).send({
        status: 'live',
        cost: 8,
      });
      expect(expectItem(res)['cost']).toBe(8);
      expectProblem(
        await as('b', 'admin', request(t.server).patch(`/books/${ids['a1']}`)).send({ cost: 1 }),
        404,
        'SVC_NOT_FOUND',
      );
      expect((await bookRow('a1')).cost).toBe(8);
    });
  });

  describe('the OpenAPI document', () => {
    it('documents the widest view, each field naming the roles that may read or write it', async () => {
      const config = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle('access').setVersion('1').build();
      const document = SwaggerModule.createDocument(t.app, config);
      await validateOpenApi(document);
      const schemas = document.components!.schemas as Record<string, { properties: Record<string, unknown> }>;
      const row = schemas['AcBook']!.properties;
      expect(row['cost']).toMatchObject({ 'x-svc-roles': { read: ['admin'] } });
      expect(row['title']).toMatchObject({ 'x-svc-roles': { read: ['reader', 'editor', 'admin'] } });
      const create = schemas['AcBookCreate']!.properties;
      expect(create['cost']).toMatchObject({ 'x-svc-roles': { write: ['admin'] } });
      expect(create['title']).toMatchObject({ 'x-svc-roles': { write: ['editor', 'admin'] } });
      expect(create['status']).toMatchObject({ 'x-svc-roles': { write: ['admin'] } });
      expect(schemas['AcAuthor']!.properties['email']).toMatchObject({ 'x-svc-roles': { read: [] } });
    });
  });

  describe('the description of a caller', () => {
    it('leaves out what the caller’s role may not read on related entities: embedded rows and relation paths', () => {
      const reviews = t.app.get(SvcRegistry).serviceFor(AcReview);
      const reader = reviews.describe({ 'x-tenant': 'a', 'x-role': 'reader' });
      const admin = reviews.describe({ 'x-tenant': 'a', 'x-role': 'admin' });
      const names = (description: typeof reader) => description.filter.fields.map((field) => field.name);
      expect(names(reader)).not.toContain('book.cost');
      expect(names(admin)).toContain('book.cost');
      expect(reader.sort.fields).not.toContain('book.cost');
      expect(JSON.stringify(reader.schemas['AcReview'])).not.toMatch(/"cost"/);
      expect(JSON.stringify(admin.schemas['AcReview'])).toMatch(/"cost"/);
      // Built once per combination of roles.
      expect(reviews.describe({ 'x-tenant': 'b', 'x-role': 'reader' })).toBe(reader);
    });
  });

  describe('the result cache', () => {
    it('never answers one role with an entry another role filled', async () => {
      const path = `/cached-books/${ids['b1']}`;
      expect(expectItem(await get('b', 'reader', path))).not.toHaveProperty('cost');
      expect(expectItem(await get('b', 'admin', path))['cost']).toBe(11);
      expect(expectItem(await get('b', 'reader', path))).not.toHaveProperty('cost');
      const list = '/cached-books?include=author';
      const adminList = expectList(await get('b', 'admin', list));
      expect((adminList.items[0]!['author'] as Record<string, unknown>)['email']).toBe('bob@b.test');
      const readerList = expectList(await get('b', 'reader', list));
      expect(readerList.items[0]).not.toHaveProperty('cost');
      expect(readerList.items[0]!['author']).not.toHaveProperty('email');
    });
  });
});

describe('access checked at boot', () => {
  it('names an unknown field with did-you-mean, and an unknown rule key', async () => {
    const db = TEST_DATABASES[0]!;
    const misspelt = await bootstrapFailure({
      db,
      suite: 'e2e_access_boot',
      entities: ACCESS_ENTITIES,
      controllers: [
        svcController('books', AcBook, {
          access: { role: () => 'reader', roles: { reader: { read: ['titel' as 'title'] } } },
        }),
      ],
    });
    expect(misspelt.message).toContain('access.roles.reader.read');
    expect(misspelt.message).toContain("'title'");
    const key = await bootstrapFailure({
      db,
      suite: 'e2e_access_boot',
      entities: ACCESS_ENTITIES,
      controllers: [
        svcController('books', AcBook, {
          access: { role: () => 'reader', roles: { reader: { raed: 'all' } as never } },
        }),
      ],
    });
    expect(key.message).toContain('access.roles.reader.raed');
  });
});
