/**
 * The result cache (cache.ttl): hits skip the database, writes invalidate, partitions keep callers apart; through the
 * memory store and through a store that keeps JSON text (as Redis would), a hit answers exactly as the miss did.
 */
import { MemoryCacheStore, type CacheStore, type PolicyArgs, type SvcContext, type SvcOptions } from '@svc/core';
import type { Type } from '@nestjs/common';
import { SvcRegistry } from '@svc/nestjs';
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { JsonRoundTripCacheStore } from '../support/json-cache-store';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES } from '../support/test-databases';

const headerOf = (context: SvcContext, name: string) =>
  (context.request as { headers: Record<string, string | undefined> } | undefined)?.headers[name];
const tenantOf = (context: SvcContext) => headerOf(context, 'x-tenant');

/** Each store the suite runs through, with the database namespace of its run. */
const STORES = [
  { store: 'the memory store', suite: 'e2e_result_cache', create: (): CacheStore => new MemoryCacheStore() },
  { store: 'a JSON store', suite: 'e2e_result_cache_json', create: (): CacheStore => new JsonRoundTripCacheStore() },
];

/** A store that fails every call: the cache must degrade to uncached, never to an error. */
const brokenStore: CacheStore = {
  get: () => Promise.reject(new Error('store down')),
  set: () => {
    throw new Error('store down');
  },
  invalidate: () => Promise.reject(new Error('store down')),
};

describe.each(STORES)('result cache through $store', ({ suite, create }) => {
  describe.each(TEST_DATABASES)('on $name', (db) => {
    let t: TestApp;
    const counter = new StatementCounter();
    const get = (path: string) => request(t.server).get(path);
    /** The rows the dated-authors policy was given, in call order. */
    const policyRows: Record<string, unknown>[] = [];
    /** Allows a row created at or after the `x-not-before` instant (epoch ms): a comparison that needs a real Date. */
    const createdSince = ({ context, entity }: PolicyArgs) => {
      if (!entity) return true;
      policyRows.push(entity);
      const createdAt = entity['createdAt'];
      return createdAt instanceof Date && createdAt.getTime() >= Number(headerOf(context, 'x-not-before') ?? 0);
    };

    beforeAll(async () => {
      t = await createTestApp({
        db,
        suite,
        entities: BOOKSTORE_ENTITIES,
        dataSource: { logging: true, logger: counter },
        svc: { cacheStore: create(), cacheKey: (context) => tenantOf(context) ?? 'anonymous' },
        controllers: [
          svcController('books', Book, {
            cache: { ttl: 60 },
            include: { fields: ['author'] },
            filter: { fields: ['title', 'author.country'] },
          }),
          svcController('uncached', Book, { operations: { findMany: { cache: { ttl: false } }, findOne: true } }),
          // A second cached controller of Book that serves fewer fields: never answered from /books' entries.
          svcController('public-books', Book, { cache: { ttl: 60 }, select: { fields: { exclude: ['isbn'] } } }),
          svcController('authors', Author, {
            cache: { ttl: 60 },
            filter: { apply: ({ context }) => (tenantOf(context) === 'uk' ? { country: { eq: 'UK' } } : undefined) },
            policy: ({ context, entity }) => !(tenantOf(context) === 'blocked' && entity),
          }),
          svcController('dated-authors', Author, { cache: { ttl: 60 }, policy: createdSince }),
        ],
      });
      const [ann] = await t.dataSource.getRepository(Author).save([
        { name: 'Ann', country: 'UK' },
        { name: 'Bob', country: 'US' },
      ]);
      await t.dataSource.getRepository(Book).save([{ title: 'One', author: ann }, { title: 'Two' }]);
    });
    afterAll(() => t.close());

    it('hashes no ETag a GraphQL or MCP read never sends, unless the cache may serve its answer over REST', async () => {
      const registry = t.app.get(SvcRegistry);
      const serviceAt = (path: string) =>
        registry.controllers().find(({ controller }) => Reflect.getMetadata('path', controller) === path)!.service;
      const [book] = await t.dataSource.getRepository(Book).find({ take: 1 });
      const etagOf = async (path: string, surface: string) =>
        (await serviceAt(path).engine.execute({ operation: 'findOne', id: book!.id, surface })).etag;
      for (const surface of ['graphql', 'mcp']) expect(await etagOf('uncached', surface)).toBeUndefined();
      for (const surface of ['rest', 'service']) expect(await etagOf('uncached', surface)).toMatch(/^"/);
      // A cached entry is shared by surfaces: the one a GraphQL read fills carries the ETag REST will send.
      expect(await etagOf('books', 'graphql')).toMatch(/^"/);
      const rest = await get(`/books/${book!.id}`).expect(200);
      expect(rest.headers['etag']).toMatch(/^"/);
    });

    it('serves a repeated list and item read without touching the database', async () => {
      const first = await get('/books?sort=id').expect(200);
      expect(await counter.during(() => get('/books?sort=id').expect(200))).toBe(0);
      const one = await get(`/books/${first.body.items[0].id}`).expect(200);
      let again = one;
      expect(
        await counter.during(async () => (again = await get(`/books/${first.body.items[0].id}`).expect(200))),
      ).toBe(0);
      expect(again.body).toEqual(one.body);
      expect(again.headers.etag).toBe(one.headers.etag);
      await get(`/books/${first.body.items[0].id}`).set('If-None-Match', one.headers.etag).expect(304);
    });

    it('keeps the entries of two controllers of one entity apart, and drops both on a write', async () => {
      await request(t.server).post('/books').send({ title: 'Marked', isbn: 'SECRET-1' }).expect(201);
      const staff = await get('/books?sort=-id&limit=1').expect(200);
      const id = staff.body.items[0].id as number;
      expect(staff.body.items[0].isbn).toBe('SECRET-1');
      expect((await get(`/books/${id}`).expect(200)).body.isbn).toBe('SECRET-1');
      const list = await get('/public-books?sort=-id&limit=1').expect(200);
      expect(list.body.items[0]).toMatchObject({ id, title: 'Marked' });
      expect(list.body.items[0]).not.toHaveProperty('isbn');
      expect((await get(`/public-books/${id}`).expect(200)).body).not.toHaveProperty('isbn');
      // Each is cached now, on its own.
      expect(await counter.during(() => get(`/public-books/${id}`).expect(200))).toBe(0);
      await request(t.server).patch(`/books/${id}`).send({ title: 'Remarked' }).expect(200);
      expect((await get(`/public-books/${id}`).expect(200)).body.title).toBe('Remarked');
      await request(t.server).delete(`/books/${id}`).expect(204);
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

    it('runs the policy on an equal row on a miss and on a hit, its dates still Dates', async () => {
      const author = await t.dataSource.getRepository(Author).save({ name: 'Dee', country: 'DE' });
      policyRows.length = 0;
      const path = `/dated-authors/${author.id}`;
      expect(await counter.during(() => get(path).expect(200))).toBeGreaterThan(0);
      expect(await counter.during(() => get(path).expect(200))).toBe(0);
      expect(policyRows).toHaveLength(2);
      expect(policyRows[0]!['createdAt']).toBeInstanceOf(Date);
      expect(policyRows[1]).toStrictEqual(policyRows[0]);
      // On a hit the comparison still decides both ways, to the millisecond.
      const createdAt = (policyRows[0]!['createdAt'] as Date).getTime();
      await get(path).set('x-not-before', String(createdAt)).expect(200);
      await get(path)
        .set('x-not-before', String(createdAt + 1))
        .expect(403);
    });

    it('serves a hit byte for byte as the miss served it: status, ETag and body, for items and lists', async () => {
      const [book] = (await get('/books?sort=id').expect(200)).body.items;
      // A write drops every cached book read, so each first read below is a miss.
      await request(t.server).post('/books').send({ title: 'Fresh' }).expect(201);
      const paths = [
        `/books/${book.id}`,
        `/books/${book.id}?include=author`,
        '/books?include=author&sort=-id',
        '/books?select=id,title,updatedAt&sort=id',
      ];
      for (const path of paths) {
        let miss!: request.Response;
        let hit!: request.Response;
        expect(await counter.during(async () => (miss = await get(path)))).toBeGreaterThan(0);
        expect(await counter.during(async () => (hit = await get(path)))).toBe(0);
        expect(hit.status).toBe(200);
        expect(miss.status).toBe(200);
        expect(hit.headers.etag).toBe(miss.headers.etag);
        expect(hit.headers['content-type']).toBe(miss.headers['content-type']);
        expect(hit.text).toBe(miss.text);
      }
    });
  });
});

describe('result cache safety', () => {
  /** Runs `work` against a SQLite app of the bookstore entities, closed after it whatever happens. */
  const withApp = async (
    options: { suite: string; controllers: Type[]; svc?: SvcOptions },
    work: (t: TestApp) => Promise<void>,
  ) => {
    const t = await createTestApp({ db: { name: 'sqlite' }, entities: BOOKSTORE_ENTITIES, ...options });
    try {
      await work(t);
    } finally {
      await t.close();
    }
  };

  it('closes the cache store when the app closes (the store closes only what it opened)', async () => {
    const store = Object.assign(new MemoryCacheStore(), { closed: 0, close: () => void store.closed++ });
    await withApp(
      { suite: 'e2e_result_cache_close', svc: { cacheStore: store }, controllers: [svcController('books', Book)] },
      async () => expect(store.closed).toBe(0),
    );
    expect(store.closed).toBe(1);
  });

  it('degrades to uncached when the store fails', async () => {
    await withApp(
      {
        suite: 'e2e_result_cache_broken',
        svc: { cacheStore: brokenStore },
        controllers: [svcController('books', Book, { cache: { ttl: 60 } })],
      },
      async (t) => {
        await request(t.server).post('/books').send({ title: 'A' }).expect(201);
        expect((await request(t.server).get('/books').expect(200)).body.total).toBe(1);
        await request(t.server).post('/books').send({ title: 'B' }).expect(201);
        expect((await request(t.server).get('/books').expect(200)).body.total).toBe(2);
      },
    );
  });

  it('keeps a controller’s entries its own across releases that share a store and add a controller', async () => {
    // Release 1 serves Book at /books only; release 2 adds /public-books, made first, serving fewer fields. In the
    // middle of a rolling update both write to one shared store.
    const store = new JsonRoundTripCacheStore();
    const book = { title: 'Staff only', isbn: 'SECRET-2' };
    const release = async (suite: string, controllers: Type[]) => {
      const app = await createTestApp({
        db: { name: 'sqlite' },
        suite,
        entities: BOOKSTORE_ENTITIES,
        svc: { cacheStore: store },
        controllers,
      });
      await app.dataSource.getRepository(Book).save(book);
      return app;
    };
    const staff = () => svcController('books', Book, { cache: { ttl: 60 } });
    const publicBooks = svcController('public-books', Book, {
      cache: { ttl: 60 },
      select: { fields: { exclude: ['isbn'] } },
    });
    const first = await release('e2e_result_cache_release_1', [staff()]);
    const second = await release('e2e_result_cache_release_2', [publicBooks, staff()]);
    try {
      expect((await request(first.server).get('/books/1').expect(200)).body.isbn).toBe('SECRET-2');
      expect((await request(first.server).get('/books?limit=1').expect(200)).body.items[0].isbn).toBe('SECRET-2');
      expect((await request(second.server).get('/public-books/1').expect(200)).body).not.toHaveProperty('isbn');
      const list = await request(second.server).get('/public-books?limit=1').expect(200);
      expect(list.body.items[0]).toMatchObject({ title: 'Staff only' });
      expect(list.body.items[0]).not.toHaveProperty('isbn');
      // The staff controller keeps its name, so release 2 may answer from release 1's entries of it.
      expect((await request(second.server).get('/books/1').expect(200)).body.isbn).toBe('SECRET-2');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('does not share cached reads whose included children are scoped per caller, when no cacheKey partitions them', async () => {
    await withApp(
      {
        suite: 'e2e_result_cache_scoped_children',
        controllers: [
          svcController('books', Book, { cache: { ttl: 60 }, include: { fields: ['author'] } }),
          svcController('authors', Author, {
            filter: { apply: ({ context }) => (tenantOf(context) === 'uk' ? { country: { eq: 'UK' } } : undefined) },
          }),
        ],
      },
      async (t) => {
        const author = await t.dataSource.getRepository(Author).save({ name: 'Una', country: 'US' });
        await t.dataSource.getRepository(Book).save({ title: 'Scoped', author });
        const all = await request(t.server).get('/books?include=author').set('x-tenant', 'all').expect(200);
        expect(all.body.items[0].author).toMatchObject({ name: 'Una' });
        const uk = await request(t.server).get('/books?include=author').set('x-tenant', 'uk').expect(200);
        expect(uk.body.items[0].author).toBeNull();
      },
    );
  });

  it('does not share cached reads that filter, sort or search through a relation scoped per caller, without a cacheKey', async () => {
    await withApp(
      {
        suite: 'e2e_result_cache_scoped_paths',
        controllers: [
          svcController('books', Book, { cache: { ttl: 60 }, filter: { fields: ['title', 'author.name'] } }),
          svcController('sorted-books', Book, { cache: { ttl: 60 }, sort: { fields: ['id', 'author.name'] } }),
          svcController('searched-books', Book, { cache: { ttl: 60 }, search: { fields: ['title', 'author.name'] } }),
          svcController('authors', Author, {
            filter: { apply: ({ context }) => (tenantOf(context) === 'uk' ? { country: { eq: 'UK' } } : undefined) },
          }),
        ],
      },
      async (t) => {
        const una = await t.dataSource.getRepository(Author).save({ name: 'Una', country: 'US' });
        await t.dataSource.getRepository(Book).save({ title: 'Scoped', author: una });
        const as = (tenant: string, path: string) => request(t.server).get(path).set('x-tenant', tenant).expect(200);
        expect((await as('all', '/books?filter[author.name][eq]=Una')).body.total).toBe(1);
        expect((await as('uk', '/books?filter[author.name][eq]=Una')).body.total).toBe(0);
        expect((await as('all', '/searched-books?search[query]=Una')).body.total).toBe(1);
        expect((await as('uk', '/searched-books?search[query]=Una')).body.total).toBe(0);
        // Ordered by an author the caller cannot see, the book sorts as if it had none: a different order per tenant.
        const zed = await t.dataSource.getRepository(Author).save({ name: 'Zed', country: 'UK' });
        await t.dataSource.getRepository(Book).save({ title: 'Second', author: zed });
        const order = async (tenant: string) =>
          (await as(tenant, '/sorted-books?sort=author.name,id')).body.items.map((book: Book) => book.title);
        const all = await order('all');
        const uk = await order('uk');
        expect(all).not.toEqual(uk);
      },
    );
  });

  it('drops cached reads sorted through a relation path when the related entity is written', async () => {
    await withApp(
      {
        suite: 'e2e_result_cache_sort_paths',
        controllers: [
          svcController('books', Book, { cache: { ttl: 60 }, sort: { fields: ['id', 'author.name'] } }),
          svcController('authors', Author),
        ],
      },
      async (t) => {
        const [ann, bob] = await t.dataSource.getRepository(Author).save([{ name: 'Ann' }, { name: 'Bob' }]);
        await t.dataSource.getRepository(Book).save([
          { title: 'By Ann', author: ann },
          { title: 'By Bob', author: bob },
        ]);
        const titles = async () =>
          (await request(t.server).get('/books?sort=author.name').expect(200)).body.items.map(
            (book: Book) => book.title,
          );
        expect(await titles()).toEqual(['By Ann', 'By Bob']);
        await request(t.server).patch(`/authors/${ann!.id}`).send({ name: 'Zoe' }).expect(200);
        expect(await titles()).toEqual(['By Bob', 'By Ann']);
      },
    );
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
