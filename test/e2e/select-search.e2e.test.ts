/** select (fields close every body, default, additive apply) and search (substring, words, literal wildcards). */
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const TITLES = [
  'Dune',
  'Dune Messiah',
  'Children of Dune',
  'The Hobbit',
  '100% Pure',
  'snake_case notes',
  'Hobbit Dune',
];

describe.each(TEST_DATABASES)('select and search on $name', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_select_search',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { search: {}, select: { fields: { exclude: ['isbn'] } } }),
        svcController('lean-books', Book, {
          select: { fields: ['id', 'title', 'pages', 'rating'], default: ['id', 'title'], apply: () => ['rating'] },
          search: { fields: ['title'], mode: 'words', default: 'Dune' },
        }),
        svcController('authors', Author),
        // Hides isbn, but names it for search: an explicit list may.
        svcController('isbn-books', Book, {
          select: { fields: { exclude: ['isbn'] } },
          search: { fields: ['title', 'isbn'] },
        }),
      ],
    });
    for (const [i, title] of TITLES.entries()) {
      await request(t.server)
        .post('/books')
        .send({ title, pages: 100 + i, isbn: `isbn-${i}` })
        .expect(201);
    }
  });
  afterAll(() => t.close());

  describe('select.fields', () => {
    it('closes item and list bodies to the listed fields on every operation', async () => {
      const list = await request(t.server).get('/books').expect(200);
      expect(list.body.items[0]).not.toHaveProperty('isbn');
      const one = await request(t.server).get(`/books/${list.body.items[0].id}`).expect(200);
      expect(one.body).not.toHaveProperty('isbn');
      const patched = await request(t.server).patch(`/books/${one.body.id}`).send({ pages: 5 }).expect(200);
      expect(patched.body).not.toHaveProperty('isbn');
    });

    it('narrows the projection with select=', async () => {
      const list = await request(t.server).get('/books?select=title,pages&limit=1').expect(200);
      expect(Object.keys(list.body.items[0]).sort()).toEqual(['pages', 'title']);
    });

    it('refuses a field outside select.fields, naming it', async () => {
      const response = await request(t.server).get('/books?select=title,isbn').expect(400);
      expect(response.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'select' }] });
      expect(response.body.errors[0].detail).toContain('isbn');
    });

    it('serves select.default when the request sends no select, plus what apply adds', async () => {
      const list = await request(t.server).get('/lean-books?limit=1').expect(200);
      expect(Object.keys(list.body.items[0]).sort()).toEqual(['id', 'rating', 'title']);
      const narrowed = await request(t.server).get('/lean-books?limit=1&select=pages').expect(200);
      expect(Object.keys(narrowed.body.items[0]).sort()).toEqual(['pages', 'rating']);
    });
  });

  describe('search', () => {
    it('matches the term as a substring of any search field, case-insensitively', async () => {
      const response = await request(t.server).get('/books?search[query]=dune&sort=id').expect(200);
      expect(response.body.items.map((book: Book) => book.title)).toEqual([
        'Dune',
        'Dune Messiah',
        'Children of Dune',
        'Hobbit Dune',
      ]);
    });

    it('leaves a column select.fields hides out of the default search fields, unless listed', async () => {
      // Every book's isbn holds 'isbn-': a term cannot probe the hidden column, character by character.
      expect((await request(t.server).get('/books?search[query]=isbn-').expect(200)).body.total).toBe(0);
      const listed = await request(t.server).get('/isbn-books?search[query]=isbn-3').expect(200);
      expect(listed.body.items.map((book: Book) => book.title)).toEqual(['The Hobbit']);
      expect(listed.body.items[0]).not.toHaveProperty('isbn');
    });

    it("matches the term's % and _ literally", async () => {
      const percent = await request(t.server)
        .get(`/books?search[query]=${encodeURIComponent('100%')}`)
        .expect(200);
      expect(percent.body.items.map((book: Book) => book.title)).toEqual(['100% Pure']);
      const underscore = await request(t.server).get('/books?search[query]=e_c').expect(200);
      expect(underscore.body.items.map((book: Book) => book.title)).toEqual(['snake_case notes']);
    });

    it('in words mode needs every word to match some field, and uses the default term', async () => {
      const words = await request(t.server).get('/lean-books?search[query]=hobbit%20dune').expect(200);
      expect(words.body.items.map((book: Book) => book.title)).toEqual(['Hobbit Dune']);
      const byDefault = await request(t.server).get('/lean-books').expect(200);
      expect(byDefault.body.total).toBe(4);
    });

    it('ANDs the search with the filter', async () => {
      const response = await request(t.server).get('/books?search[query]=dune&filter[pages][gte]=102').expect(200);
      expect(response.body.items.map((book: Book) => book.title).sort()).toEqual(['Children of Dune', 'Hobbit Dune']);
    });

    it('is refused with SVC_QUERY_UNSUPPORTED_PARAM where search is off', async () => {
      const response = await request(t.server).get('/authors?search[query]=x').expect(400);
      expect(response.body).toMatchObject({
        code: 'SVC_QUERY_UNSUPPORTED_PARAM',
        errors: [{ param: 'search[query]' }],
      });
    });

    it('refuses a term longer than maxLikePatternLength', async () => {
      const response = await request(t.server)
        .get(`/books?search[query]=${'a'.repeat(201)}`)
        .expect(400);
      expect(response.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'search[query]' }] });
    });
  });
});
