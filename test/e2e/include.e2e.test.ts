/** include: opt-in relations, defaults, nesting through peers, select[<relation>], read strategies, batched loading. */
import type { EntityConfig } from '@svc/core';
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book, Review, Tag } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES } from '../support/test-databases';

interface BookItem {
  id: number;
  title: string;
  author?: Record<string, unknown> | null;
  reviews?: { rating: number }[];
  tags?: { name: string }[];
}

describe.each(TEST_DATABASES)('include on $name', (db) => {
  let t: TestApp;
  const counter = new StatementCounter();
  const get = (path: string) => request(t.server).get(path);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_include',
      entities: BOOKSTORE_ENTITIES,
      dataSource: { logging: true, logger: counter },
      controllers: [
        svcController('authors', Author, {
          include: { fields: ['books'] },
          select: { fields: { exclude: ['createdAt'] } },
        }),
        svcController('books', Book, {
          include: { fields: ['author', 'tags', 'reviews'], limits: { maxNodes: 3 } },
          relations: { author: { read: { strategy: 'batch' } } },
        }),
        svcController('key-books', Book, {
          include: { fields: ['author'], default: ['author'] },
          relations: { author: { read: { strategy: 'key' } } },
        }),
        svcController('deep-books', Book, {
          include: { fields: ['author'] },
          relations: { author: { read: { maxDepth: 3 } } },
        }),
        svcController('reviews', Review, {
          include: { fields: ['book'] },
          filter: { apply: () => ({ rating: { gte: 2 } }) },
        }),
        svcController('tags', Tag),
      ],
    });
    const repo = t.dataSource;
    const [ann, bob] = await repo.getRepository(Author).save([{ name: 'Ann', country: 'UK' }, { name: 'Bob' }]);
    const [red, blue] = await repo.getRepository(Tag).save([{ name: 'red' }, { name: 'blue' }]);
    const books = [];
    for (let i = 0; i < 120; i++) {
      books.push({
        title: `Book ${i}`,
        pages: i,
        author: i % 3 === 2 ? null : i % 3 === 0 ? ann : bob,
        tags: i % 2 ? [red!] : [red!, blue!],
      });
    }
    const saved = await repo.getRepository(Book).save(books);
    const reviews = saved.flatMap((book, i) => [
      { rating: 1 + (i % 5), book },
      { rating: 5, book },
    ]);
    await repo.getRepository(Review).save(reviews);
  });
  afterAll(() => t.close());

  it('embeds a to-one relation projected through its own select.fields', async () => {
    const response = await get('/books?include=author&limit=3&sort=id').expect(200);
    const [first, second, third] = response.body.items as BookItem[];
    expect(first!.author).toEqual({ id: expect.any(Number), name: 'Ann', country: 'UK' });
    expect(second!.author).toMatchObject({ name: 'Bob' });
    expect(third!.author).toBeNull();
  });

  it('embeds to-many relations (one-to-many and many-to-many) as arrays, scoped by the target filter.apply', async () => {
    const response = await get('/books?include=reviews,tags&limit=2&sort=id').expect(200);
    const [first, second] = response.body.items as BookItem[];
    expect(first!.reviews!.map((review) => review.rating)).toEqual([5]);
    expect(second!.reviews!.map((review) => review.rating)).toEqual([2, 5]);
    expect(first!.tags!.map((tag) => tag.name).sort()).toEqual(['blue', 'red']);
    expect(second!.tags!.map((tag) => tag.name)).toEqual(['red']);
  });

  it('sends the same number of statements at limit 20 and limit 100', async () => {
    const at20 = await counter.during(() => get('/books?include=author,reviews&limit=20').expect(200));
    const at100 = await counter.during(() => get('/books?include=author,reviews&limit=100').expect(200));
    expect(at100).toBe(at20);
    expect(at20).toBeLessThanOrEqual(4);
  });

  it('nests through the target entity’s own include config', async () => {
    const response = await get('/books?include=author.books&limit=1&sort=id').expect(200);
    const author = (response.body.items as BookItem[])[0]!.author as { books: unknown[] };
    expect(author.books.length).toBe(40);
  });

  it('refuses paths past the depth limit, relations not on include.fields, and too many nodes', async () => {
    const deep = await get('/books?include=author.books.author').expect(400);
    expect(deep.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'include' }] });
    const missing = await get('/books?include=publisher').expect(400);
    expect(missing.body.errors[0].detail).toContain('publisher');
    const wide = await get('/books?include=author,tags,reviews,author.books').expect(400);
    expect(wide.body.errors[0].detail).toContain('more than 3');
    const off = await get('/tags?include=books').expect(400);
    expect(off.body).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM' });
  });

  it('lets relations.<name>.read.maxDepth raise the depth limit for that relation', async () => {
    await get('/deep-books?include=author.books.author&limit=1').expect(200);
    await get('/books?include=author.books.author').expect(400);
  });

  it('projects an included relation with select[<relation>] against its own select.fields', async () => {
    const response = await get('/books?include=author&select=title&select[author]=name&limit=1&sort=id').expect(200);
    expect(response.body.items[0]).toEqual({ title: 'Book 0', author: { name: 'Ann' } });
    const hidden = await get('/books?include=author&select[author]=createdAt').expect(400);
    expect(hidden.body.errors[0].param).toBe('select[author]');
    const notIncluded = await get('/books?select[tags]=name').expect(400);
    expect(notIncluded.body.errors[0].param).toBe('select[tags]');
  });

  it('materializes a key-strategy relation from the foreign key, with no extra statement', async () => {
    const plain = await counter.during(() => get('/books?limit=5').expect(200));
    let body: { items: BookItem[] } = { items: [] };
    const keyed = await counter.during(async () => {
      body = (await get('/key-books?limit=3&sort=id').expect(200)).body;
    });
    expect(keyed).toBe(plain);
    expect(body.items.map((item) => item.author)).toEqual([
      { id: expect.any(Number) },
      { id: expect.any(Number) },
      null,
    ]);
  });

  it('loads an owning to-one whose foreign key is not a mapped property', async () => {
    const response = await get('/reviews?include=book&limit=2&sort=id').expect(200);
    expect(response.body.items[0].book).toMatchObject({ title: 'Book 0' });
  });

  it('includes on a single-row read, and hides soft-deleted children', async () => {
    const list = await get('/books?limit=1&sort=id&filter[authorId][isNotNull]=true').expect(200);
    const book = list.body.items[0] as BookItem;
    await request(t.server).delete(`/books/${book.id}`).expect(204);
    const author = await get(
      `/authors/${(await get('/authors?sort=id&limit=1')).body.items[0].id}?include=books`,
    ).expect(200);
    expect((author.body.books as BookItem[]).some((child) => child.id === book.id)).toBe(false);
    expect(author.headers.etag).toBeDefined();
    const unsupported = await get(`/authors/1?limit=5`).expect(400);
    expect(unsupported.body).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', errors: [{ param: 'limit' }] });
  });
});

describe.each(TEST_DATABASES)('a key-strategy include of a scoped target on $name', (db) => {
  it('serves the key of a row in the target’s scope only, and null for one outside it', async () => {
    const t = await createTestApp({
      db,
      suite: 'e2e_include_key_scope',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          include: { fields: ['author'], default: ['author'] },
          relations: { author: { read: { strategy: 'key' } } },
        }),
        svcController('authors', Author, { filter: { apply: () => ({ country: { eq: 'UK' } }) } }),
      ],
    });
    try {
      const [ann, bob] = await t.dataSource.getRepository(Author).save([
        { name: 'Ann', country: 'UK' },
        { name: 'Bob', country: 'US' },
      ]);
      await t.dataSource.getRepository(Book).save([
        { title: 'By Ann', author: ann },
        { title: 'By Bob', author: bob },
      ]);
      const list = await request(t.server).get('/books?sort=id').expect(200);
      expect(list.body.items.map((item: BookItem) => item.author)).toEqual([{ id: ann!.id }, null]);
      const one = await request(t.server).get(`/books/${list.body.items[1].id}`).expect(200);
      expect(one.body.author).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('include bootstrap errors', () => {
  const cases: [string, Function, EntityConfig, string][] = [
    ['an empty relations entry', Book, { relations: { author: {} } }, 'relations.author'],
    [
      "'key' on a to-many relation",
      Book,
      { relations: { reviews: { read: { strategy: 'key' } } } },
      'relations.reviews.read.strategy',
    ],
    [
      "'key' on an inverse relation",
      Author,
      { relations: { books: { read: { strategy: 'key' } } } },
      'relations.books.read.strategy',
    ],
    [
      'write on a to-one relation',
      Book,
      { relations: { author: { write: { strategy: 'replace' } } } as never },
      'relations.author.write',
    ],
    ['an unknown relation', Book, { relations: { authr: { read: { maxDepth: 1 } } } }, "Did you mean 'author'"],
    ['include.fields naming a column', Book, { include: { fields: ['title'] } }, 'include.fields'],
    [
      'include.default off include.fields',
      Book,
      { include: { fields: ['author'], default: ['tags'] } },
      'include.default',
    ],
    ['a relation path in select.fields', Book, { select: { fields: ['author.name'] } }, 'select.fields'],
  ];
  it.each(cases)('refuses %s', async (_name, entity, config, mention) => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_include_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', entity, config)],
    });
    expect(error.message).toContain(mention);
  });
});
