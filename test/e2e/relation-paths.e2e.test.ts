/** Relation paths in filter and search: they restrict root rows (any related row matching) and never the children. */
import type { EntityConfig } from '@svc/core';
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book, Review, Tag } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const titles = (body: { items: { title: string }[] }) => body.items.map((item) => item.title).sort();

describe.each(TEST_DATABASES)('relation paths on $name', (db) => {
  let t: TestApp;
  const get = (path: string) => request(t.server).get(path);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_relation_paths',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          filter: { fields: ['title', 'author.country', 'tags.name', 'reviews.rating'] },
          search: { fields: ['title', 'author.name'] },
          include: { fields: ['reviews'] },
        }),
        svcController('reviews', Review, { filter: { fields: { 'book.title': ['eq', 'contains'] } } }),
        svcController('authors', Author, {
          filter: {
            apply: ({ context }) =>
              (context.request as { headers: Record<string, string> }).headers['x-hide-uk']
                ? { country: { ne: 'UK' } }
                : undefined,
          },
        }),
      ],
    });
    const data = t.dataSource;
    const [ann, bob] = await data.getRepository(Author).save([
      { name: 'Ann Leckie', country: 'US' },
      { name: 'Bob Shaw', country: 'UK' },
    ]);
    const [red, blue] = await data.getRepository(Tag).save([{ name: 'red' }, { name: 'blue' }]);
    const [dune, hobbit, emma] = await data.getRepository(Book).save([
      { title: 'Ancillary', author: ann, tags: [red!] },
      { title: 'Orbitsville', author: bob, tags: [red!, blue!] },
      { title: 'Untagged', author: null, tags: [] },
    ]);
    await data.getRepository(Review).save([
      { rating: 5, book: dune },
      { rating: 2, book: dune },
      { rating: 3, book: hobbit },
    ]);
    void emma;
  });
  afterAll(() => t.close());

  it('filters by a column of a to-one relation', async () => {
    expect(titles((await get('/books?filter[author.country][eq]=UK').expect(200)).body)).toEqual(['Orbitsville']);
  });

  it('filters by a column of a many-to-many relation', async () => {
    expect(titles((await get('/books?filter[tags.name][eq]=blue').expect(200)).body)).toEqual(['Orbitsville']);
    expect(titles((await get('/books?filter[tags.name][in]=red,blue').expect(200)).body)).toEqual([
      'Ancillary',
      'Orbitsville',
    ]);
  });

  it('filters by a column of a one-to-many relation, restricting root rows and never the included children', async () => {
    const response = await get('/books?filter[reviews.rating][gte]=5&include=reviews').expect(200);
    expect(titles(response.body)).toEqual(['Ancillary']);
    expect(response.body.items[0].reviews.map((review: { rating: number }) => review.rating).sort()).toEqual([2, 5]);
  });

  it('combines relation paths with own columns, groups and the JSON form', async () => {
    const json = encodeURIComponent(
      JSON.stringify({ or: [{ 'author.country': { eq: 'US' } }, { title: { eq: 'Untagged' } }] }),
    );
    expect(titles((await get(`/books?filter=${json}`).expect(200)).body)).toEqual(['Ancillary', 'Untagged']);
    expect(titles((await get('/books?filter[not][author.country][eq]=US').expect(200)).body)).toEqual(['Orbitsville']);
  });

  it('follows a relation whose foreign key is not a mapped property, with the operators the map form allows', async () => {
    const response = await get('/reviews?filter[book.title][contains]=bits').expect(200);
    expect(response.body.items.map((review: { rating: number }) => review.rating)).toEqual([3]);
    const refused = await get('/reviews?filter[book.title][gt]=A').expect(400);
    expect(refused.body.errors[0].param).toBe('filter[book.title][gt]');
  });

  it("keeps a relation path inside the related entity's own filter.apply scope", async () => {
    expect(titles((await get('/books?filter[author.country][eq]=UK').expect(200)).body)).toEqual(['Orbitsville']);
    const scoped = await get('/books?filter[author.country][eq]=UK').set('x-hide-uk', '1').expect(200);
    expect(scoped.body.items).toEqual([]);
  });

  it('searches across a relation path', async () => {
    expect(titles((await get('/books?search[query]=leckie').expect(200)).body)).toEqual(['Ancillary']);
  });

  it('refuses a relation path that is not on filter.fields, and binds hostile values', async () => {
    const response = await get('/books?filter[author.name][eq]=x').expect(400);
    expect(response.body.errors[0].detail).toContain('author.name');
    const hostile = await get(`/books?filter[tags.name][eq]=${encodeURIComponent("red' OR '1'='1")}`).expect(200);
    expect(hostile.body.items).toEqual([]);
  });
});

describe('relation path bootstrap errors', () => {
  const cases: [string, EntityConfig, string][] = [
    ['an unknown relation', { filter: { fields: ['authr.country'] } }, "Did you mean 'author'"],
    ['an unknown column of the target', { filter: { fields: ['author.contry'] } }, "Did you mean 'country'"],
    ['two hops', { filter: { fields: ['author.books.title'] } }, 'one hop'],
    ['a non-string search path', { search: { fields: ['author.createdAt'] } }, 'not a string column'],
  ];
  it.each(cases)('refuses %s', async (_name, config, mention) => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_paths_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', Book, config)],
    });
    expect(error.message).toContain(mention);
  });
});
