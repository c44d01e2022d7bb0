/** The result cache (cache.ttl): hits skip the database, writes invalidate, partitions keep callers apart. */
import type { CacheStore, SvcContext } from '@svc/core';
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES } from '../support/test-databases';

const tenantOf = (context: SvcContext) =>
  (context.request as { headers: Record<string, string | undefined> } | undefined)?.headers['x-tenant'];

/** A store that fails every call: the cache must degrade to uncached, never to an error. */
const brokenStore: CacheStore = {
  get: () => Promise.reject(new Error('store down')),
  set: () => {
    throw new Error('store down');
  },
  invalidate: () => Promise.reject(new Error('store down')),
};

describe.each(TEST_DATABASES)('result cache on $name', (db) => {
  let t: TestApp;
  const counter = new StatementCounter();
  const get = (path: string) => request(t.server).get(path);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_result_cache',
      entities: BOOKSTORE_ENTITIES,
      dataSource: { logging: true, logger: counter },
      svc: { cacheKey: (context) => tenantOf(context) ?? 'anonymous' },
      controllers: [
        svcController('books', Book, {
          cache: { ttl: 60 },
          include: { fields: ['author'] },
          filter: { fields: ['title', 'author.country'] },
        }),
        svcController('uncached', Book, { operations: { findMany: { cache: { ttl: false } }, findOne: true } }),
        svcController('authors', Author, {
          cache: { ttl: 60 },
          filter: { apply: ({ context }) => (tenantOf(context) === 'uk' ? { country: { eq: 'UK' } } : undefined) },
          policy: ({ context, entity }) => !(tenantOf(context) === 'blocked' && entity),
        }),
      ],
    });
    const [ann] = await t.dataSource.getRepository(Author).save([
      { name: 'Ann', country: 'UK' },
      { name: 'Bob', country: 'US' },
    ]);
    await t.dataSource.getRepository(Book).save([{ title: 'One', author: ann }, { title: 'Two' }]);
  });
  afterAll(() => t.close());

  it('serves a repeated list and item read without touching the database', async () => {
    const first = await get('/books?sort=id').expect(200);
    expect(await counter.during(() => get('/books?sort=id').expect(200))).toBe(0);
    const one = await get(`/books/${first.body.items[0].id}`).expect(200);
    let again = one;
    expect(await counter.during(async () => (again = await get(`/books/${first.body.items[0].id}`).expect(200)))).toBe(
      0,
    );
    expect(again.body).toEqual(one.body);
    expect(again.headers.etag).toBe(one.headers.etag);
    await get(`/books/${first.body.items[0].id}`).set('If-None-Match', one.headers.etag).expect(304);
  });

  it('drops cached reads after a write to the entity', async () => {
    await get('/books?sort=id').expect(200);
    await request(t.server).post('/books').send({ title: 'Three' }).expect(201);
    expect((await get('/books?sort=id').expect(200)).body.total).toBe(3);
  });

  it('drops cached reads that embed an entity when that entity is written', async () => {
    const before = await get('/books?include=author&sort=id').expect(200);
    expect(before.body.items[0].author.name).toBe('Ann');
    await request(t.server).patch(`/authors/${before.body.items[0].author.id}`).send({ name: 'Anne' }).expect(200);
    expect((await get('/books?include=author&sort=id').expect(200)).body.items[0].author.name).toBe('Anne');
  });

  it('drops cached reads filtered through a relation path when the related entity is written', async () => {
    const cy = await t.dataSource.getRepository(Author).save({ name: 'Cy', country: 'US' });
    await t.dataSource.getRepository(Book).save({ title: 'By Cy', author: cy });
    expect((await get('/books?filter[author.country][eq]=FR').expect(200)).body.total).toBe(0);
    await request(t.server).patch(`/authors/${cy.id}`).send({ country: 'FR' }).expect(200);
    expect((await get('/books?filter[author.country][eq]=FR').expect(200)).body.total).toBe(1);
  });

  it('keeps callers apart by cacheKey(context), and still runs the policy on a cached row', async () => {
    const uk = await get('/authors').set('x-tenant', 'uk').expect(200);
    const all = await get('/authors').set('x-tenant', 'all').expect(200);
    expect(uk.body.total).toBe(1);
    expect(all.body.total).toBeGreaterThan(uk.body.total);
    const id = all.body.items[0].id;
    await get(`/authors/${id}`).set('x-tenant', 'blocked').expect(403);
    await get(`/authors/${id}`).set('x-tenant', 'open').expect(200);
    await get(`/authors/${id}`).set('x-tenant', 'blocked').expect(403);
  });

  it('is off where ttl is false, while ETags stay on', async () => {
    await get('/uncached').expect(200);
    expect(await counter.during(() => get('/uncached').expect(200))).toBeGreaterThan(0);
    const list = await get('/uncached').expect(200);
    expect((await get(`/uncached/${list.body.items[0].id}`).expect(200)).headers.etag).toBeDefined();
  });
});

describe('result cache safety', () => {
  it('degrades to uncached when the store fails', async () => {
    const t = await createTestApp({
      db: { name: 'sqlite' },
      suite: 'e2e_result_cache_broken',
      entities: BOOKSTORE_ENTITIES,
      svc: { cacheStore: brokenStore },
      controllers: [svcController('books', Book, { cache: { ttl: 60 } })],
    });
    try {
      await request(t.server).post('/books').send({ title: 'A' }).expect(201);
      expect((await request(t.server).get('/books').expect(200)).body.total).toBe(1);
      await request(t.server).post('/books').send({ title: 'B' }).expect(201);
      expect((await request(t.server).get('/books').expect(200)).body.total).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('does not share cached reads whose included children are scoped per caller, when no cacheKey partitions them', async () => {
    const t = await createTestApp({
      db: { name: 'sqlite' },
      suite: 'e2e_result_cache_scoped_children',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { cache: { ttl: 60 }, include: { fields: ['author'] } }),
        svcController('authors', Author, {
          filter: { apply: ({ context }) => (tenantOf(context) === 'uk' ? { country: { eq: 'UK' } } : undefined) },
        }),
      ],
    });
    try {
      const author = await t.dataSource.getRepository(Author).save({ name: 'Una', country: 'US' });
      await t.dataSource.getRepository(Book).save({ title: 'Scoped', author });
      const all = await request(t.server).get('/books?include=author').set('x-tenant', 'all').expect(200);
      expect(all.body.items[0].author).toMatchObject({ name: 'Una' });
      const uk = await request(t.server).get('/books?include=author').set('x-tenant', 'uk').expect(200);
      expect(uk.body.items[0].author).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('refuses to cache reads scoped by filter.apply without a cacheKey', async () => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_result_cache_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { cache: { ttl: 60 }, filter: { apply: () => ({ pages: { gte: 0 } }) } }),
      ],
    });
    expect(error.message).toContain('cacheKey');
  });

  it('refuses ttl: 0 at boot', async () => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_result_cache_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book, { cache: { ttl: 0 } })],
    });
    expect(error.message).toContain('cache.ttl');
  });
});
