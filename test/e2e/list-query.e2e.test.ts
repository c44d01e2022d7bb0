/** findMany over HTTP: pagination, filters, allowlists, sort, error reporting and injection safety. */
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES, Note } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { countRows, expectList, expectProblem, namedIn, pluck, type Problem } from './support/e2e-http';

const INJECTION = "'; DROP TABLE book; --";
const NOTES = 105;

/** The books of the seed; every filter below is checked against them. */
const BOOKS = [
  { title: 'Alpha', pages: 100, rating: 4.5, published: true, isbn: 'A-1' },
  { title: 'Beta', pages: 200, rating: null, published: false, isbn: null },
  { title: 'Gamma 100%', pages: 300, rating: 3, published: true, isbn: 'G_1' },
  { title: 'Gamma 1000', pages: 310, rating: 3.5, published: false, isbn: null },
  { title: 'Delta_x', pages: 50, rating: 2, published: false, isbn: null },
  { title: 'Deltabx', pages: 60, rating: 2.5, published: true, isbn: null },
  { title: INJECTION, pages: 1, rating: 1, published: false, isbn: null },
];

const byTitle = (titles: readonly string[]) => [...titles].sort();

describe.each(TEST_DATABASES)('findMany over HTTP on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_list_query',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book),
        svcController('narrow-books', Book, {
          filter: { fields: ['title', 'pages'] },
          sort: { fields: ['title', 'pages', 'id'], default: ['-pages'] },
        }),
        svcController('notes', Note),
        svcController('small-notes', Note, { pagination: { defaultLimit: 2, maxLimit: 3, count: false } }),
      ],
    });
    await t.dataSource.getRepository(Book).insert(BOOKS);
    await t.dataSource
      .getRepository(Note)
      .insert(Array.from({ length: NOTES }, (_, i) => ({ text: `note ${String(i).padStart(3, '0')}` })));
  });

  afterAll(async () => {
    await t?.close();
  });

  async function titles(query: string, path = '/books'): Promise<string[]> {
    return pluck<string>(expectList(await request(t.server).get(`${path}?${query}`)).items, 'title');
  }

  describe('pagination', () => {
    it('serves defaultLimit 20 rows when no limit is sent, with the whole total', async () => {
      const list = expectList(await request(t.server).get('/notes'));
      expect(list).toMatchObject({ limit: 20, offset: 0, total: NOTES });
      expect(list.items).toHaveLength(20);
    });

    it('clamps a limit past maxLimit 100 to 100, and says so in the envelope', async () => {
      const list = expectList(await request(t.server).get('/notes?limit=1000'));
      expect(list).toMatchObject({ limit: 100, offset: 0, total: NOTES });
      expect(list.items).toHaveLength(100);
    });

    it('skips offset rows, in primary-key order by default, and pages do not overlap', async () => {
      const first = expectList(await request(t.server).get('/notes?limit=100'));
      const rest = expectList(await request(t.server).get('/notes?limit=100&offset=100'));
      expect(rest).toMatchObject({ limit: 100, offset: 100, total: NOTES });
      expect(rest.items).toHaveLength(NOTES - 100);
      const ids = [...pluck<string>(first.items, 'id'), ...pluck<string>(rest.items, 'id')];
      expect(new Set(ids).size).toBe(NOTES);
    });

    it('serves an empty page past the end', async () => {
      const list = expectList(await request(t.server).get('/notes?offset=500'));
      expect(list).toMatchObject({ items: [], offset: 500, total: NOTES });
    });

    it('honours an entity pagination of { defaultLimit, maxLimit, count: false }: total is null', async () => {
      const list = expectList(await request(t.server).get('/small-notes'));
      expect(list).toMatchObject({ limit: 2, offset: 0, total: null });
      expect(list.items).toHaveLength(2);
      expect(expectList(await request(t.server).get('/small-notes?limit=50'))).toMatchObject({ limit: 3, total: null });
    });

    it.each([
      ['limit', 'limit=abc'],
      ['limit', 'limit=-1'],
      ['limit', 'limit=2.5'],
      ['offset', 'offset=x'],
      ['offset', 'offset=-5'],
    ])('answers 400 SVC_QUERY_INVALID naming %s for %s', async (param, query) => {
      const problem = expectProblem(await request(t.server).get(`/notes?${query}`), 400, 'SVC_QUERY_INVALID');
      expect(namedIn(problem)).toEqual([param]);
    });
  });

  describe('filters', () => {
    it.each([
      ['eq', 'filter[pages][eq]=200', ['Beta']],
      ['ne', 'filter[published][ne]=true', ['Beta', 'Gamma 1000', 'Delta_x', INJECTION]],
      ['gt', 'filter[pages][gt]=200', ['Gamma 100%', 'Gamma 1000']],
      ['gte and lte together', 'filter[pages][gte]=60&filter[pages][lte]=200', ['Alpha', 'Beta', 'Deltabx']],
      ['in with a comma list', 'filter[title][in]=Alpha,Beta', ['Alpha', 'Beta']],
      ['in with [] repeats', 'filter[pages][in][]=100&filter[pages][in][]=300', ['Alpha', 'Gamma 100%']],
      ['notIn', 'filter[pages][notIn]=1,50,60,100,200', ['Gamma 100%', 'Gamma 1000']],
      ['between (inclusive)', 'filter[pages][between]=50,100', ['Alpha', 'Delta_x', 'Deltabx']],
      ['contains, case-insensitive', 'filter[title][contains]=GAMMA', ['Gamma 100%', 'Gamma 1000']],
      ['contains with % matched literally', 'filter[title][contains]=100%25', ['Gamma 100%']],
      ['contains with _ matched literally', 'filter[title][contains]=a_x', ['Delta_x']],
      ['startsWith with _ matched literally', 'filter[isbn][startsWith]=G_', ['Gamma 100%']],
      ['endsWith', 'filter[title][endsWith]=bx', ['Deltabx']],
      ['isNull', 'filter[rating][isNull]=true', ['Beta']],
      ['isNotNull', 'filter[isbn][isNotNull]=true', ['Alpha', 'Gamma 100%']],
      ['a float comparison', 'filter[rating][gte]=3.5', ['Alpha', 'Gamma 1000']],
      ['an or group', 'filter[or][0][title][eq]=Alpha&filter[or][1][pages][eq]=200', ['Alpha', 'Beta']],
      ['a not group', 'filter[not][pages][lt]=200', ['Beta', 'Gamma 100%', 'Gamma 1000']],
      [
        'an or group ANDed with a field',
        'filter[or][0][pages][lt]=55&filter[or][1][pages][gt]=305&filter[published][eq]=false',
        ['Gamma 1000', 'Delta_x', INJECTION],
      ],
      [
        'the JSON form',
        `filter=${encodeURIComponent('{"or":[{"title":{"eq":"Alpha"}},{"not":{"pages":{"lt":301}}}]}')}`,
        ['Alpha', 'Gamma 1000'],
      ],
      [
        'the JSON form ANDed with bracket terms',
        `filter=${encodeURIComponent('{"pages":{"gte":100}}')}&filter[published][eq]=true`,
        ['Alpha', 'Gamma 100%'],
      ],
    ])('%s', async (_operator, query, expected) => {
      expect(byTitle(await titles(query))).toEqual(byTitle(expected));
    });

    it('filters by kind: boolean, datetime, date, enum, uuid and json null tests', async () => {
      expect(byTitle(await titles('filter[published][eq]=true'))).toEqual(byTitle(['Alpha', 'Gamma 100%', 'Deltabx']));
      expect(await titles('filter[updatedAt][gt]=2000-01-01T00:00:00Z&sort=pages&limit=1')).toEqual([INJECTION]);
      expect(await titles('filter[updatedAt][lt]=2000-01-01')).toEqual([]);
      const repo = t.dataSource.getRepository(Note);
      const note = await repo.save({ text: 'typed note', priority: 'high', due: '2026-03-01', data: { a: 1 } });
      const texts = async (query: string) =>
        pluck<string>(expectList(await request(t.server).get(`/notes?${query}`)).items, 'text');
      try {
        expect(await texts('filter[due][eq]=2026-03-01')).toEqual(['typed note']);
        expect(await texts('filter[due][between]=2026-01-01,2026-12-31')).toEqual(['typed note']);
        expect(await texts('filter[priority][in]=high,low')).toEqual(['typed note']);
        expect(await texts(`filter[id][eq]=${note.id}`)).toEqual(['typed note']);
        expect(await texts('filter[data][isNotNull]=true')).toEqual(['typed note']);
      } finally {
        await repo.delete({ id: note.id });
      }
    });

    it.each([
      [
        'more in values than maxInValues (100)',
        `filter[pages][in]=${Array.from({ length: 101 }, (_, i) => i).join(',')}`,
        'filter[pages][in]',
      ],
      [
        'a pattern past maxLikePatternLength (200)',
        `filter[title][contains]=${'x'.repeat(201)}`,
        'filter[title][contains]',
      ],
      ['between with one value', 'filter[pages][between]=5', 'filter[pages][between]'],
      ['an operator the kind does not take', 'filter[published][gt]=true', 'filter[published][gt]'],
      ['a boolean that is not one', 'filter[published][eq]=maybe', 'filter[published][eq]'],
      ['a date that does not exist', 'filter[updatedAt][gt]=2026-02-30', 'filter[updatedAt][gt]'],
    ])('answers 400 SVC_QUERY_INVALID naming the parameter for %s', async (_what, query, param) => {
      expect(namedIn(expectProblem(await request(t.server).get(`/books?${query}`), 400, 'SVC_QUERY_INVALID'))).toEqual([
        param,
      ]);
    });

    it('answers 400 SVC_QUERY_INVALID for groups nested past maxDepth (3)', async () => {
      const problem = expectProblem(
        await request(t.server).get('/books?filter[not][not][not][not][pages][eq]=1'),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(namedIn(problem)[0]).toMatch(/^filter\[not\]/);
    });

    it('counts the filtered set in total', async () => {
      expect(expectList(await request(t.server).get('/books?filter[pages][gt]=200&limit=1'))).toMatchObject({
        total: 2,
        limit: 1,
      });
    });

    it('answers 400 SVC_QUERY_INVALID naming the parameter when a value cannot be coerced', async () => {
      const problem = expectProblem(
        await request(t.server).get('/books?filter[pages][eq]=many'),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(namedIn(problem)).toEqual(['filter[pages][eq]']);
    });

    it('answers 400 SVC_QUERY_INVALID for an unknown operator, naming it', async () => {
      const problem = expectProblem(
        await request(t.server).get('/books?filter[pages][greater]=1'),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(namedIn(problem)).toEqual(['filter[pages][greater]']);
    });

    it('answers 400 SVC_QUERY_INVALID for malformed JSON', async () => {
      const problem = expectProblem(await request(t.server).get('/books?filter={pages'), 400, 'SVC_QUERY_INVALID');
      expect(namedIn(problem)).toEqual(['filter']);
    });
  });

  describe('filter.fields allowlist', () => {
    it('filters on a listed field', async () => {
      expect(await titles('filter[pages][eq]=100', '/narrow-books')).toEqual(['Alpha']);
    });

    it('answers 400 SVC_QUERY_INVALID naming an unlisted field', async () => {
      const problem = expectProblem(
        await request(t.server).get('/narrow-books?filter[rating][eq]=1'),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(namedIn(problem)).toEqual(['filter[rating]']);
    });

    it('refuses an unlisted field inside a group and in the JSON form too', async () => {
      const bracket = await request(t.server).get('/narrow-books?filter[or][0][isbn][eq]=x&filter[or][1][pages][eq]=1');
      expect(namedIn(expectProblem(bracket, 400, 'SVC_QUERY_INVALID')).join()).toContain('isbn');
      const json = await request(t.server).get(
        `/narrow-books?filter=${encodeURIComponent('{"not":{"published":{"eq":true}}}')}`,
      );
      expect(namedIn(expectProblem(json, 400, 'SVC_QUERY_INVALID')).join()).toContain('published');
    });
  });

  describe('sort', () => {
    it('sorts ascending and descending', async () => {
      const asc = pluck<number>(expectList(await request(t.server).get('/books?sort=pages')).items, 'pages');
      expect(asc).toEqual([1, 50, 60, 100, 200, 300, 310]);
      const desc = pluck<number>(expectList(await request(t.server).get('/books?sort=-pages')).items, 'pages');
      expect(desc).toEqual([310, 300, 200, 100, 60, 50, 1]);
    });

    it('sorts by several keys in order', async () => {
      const items = expectList(await request(t.server).get('/books?sort=-published,pages')).items;
      expect(items.map((item) => [item['published'], item['pages']])).toEqual([
        [true, 60],
        [true, 100],
        [true, 300],
        [false, 1],
        [false, 50],
        [false, 200],
        [false, 310],
      ]);
    });

    it('applies sort.default when no sort is sent, and a sent sort replaces it', async () => {
      expect(pluck<number>(expectList(await request(t.server).get('/narrow-books')).items, 'pages')).toEqual([
        310, 300, 200, 100, 60, 50, 1,
      ]);
      expect(pluck<number>(expectList(await request(t.server).get('/narrow-books?sort=pages')).items, 'pages')).toEqual(
        [1, 50, 60, 100, 200, 300, 310],
      );
    });

    it('answers 400 SVC_QUERY_INVALID naming sort for an unknown field', async () => {
      const problem = expectProblem(await request(t.server).get('/books?sort=-nope'), 400, 'SVC_QUERY_INVALID');
      expect(namedIn(problem)).toEqual(['sort']);
    });

    it('answers 400 naming sort for a field left off sort.fields', async () => {
      const problem = expectProblem(await request(t.server).get('/narrow-books?sort=rating'), 400, 'SVC_QUERY_INVALID');
      expect(namedIn(problem)).toEqual(['sort']);
    });
  });

  describe('reporting problems', () => {
    it('reports every problem of one request together in one 400', async () => {
      const res = await request(t.server).get('/books?limit=x&offset=y&sort=nope&filter[pages][eq]=abc');
      const problem = expectProblem(res, 400, 'SVC_QUERY_INVALID');
      expect(namedIn(problem)).toEqual(['filter[pages][eq]', 'limit', 'offset', 'sort']);
    });

    it('answers 400 SVC_QUERY_UNSUPPORTED_PARAM naming an unknown parameter', async () => {
      const problem = expectProblem(await request(t.server).get('/books?limt=5'), 400, 'SVC_QUERY_UNSUPPORTED_PARAM');
      expect(namedIn(problem)).toEqual(['limt']);
    });

    it('serves only the fields select= names, and answers 400 SVC_QUERY_INVALID naming select for an unknown one', async () => {
      const items = expectList(await request(t.server).get('/books?select=title,pages')).items;
      expect(items.every((item) => Object.keys(item).sort().join() === 'pages,title')).toBe(true);
      expect(
        namedIn(expectProblem(await request(t.server).get('/books?select=title,nope'), 400, 'SVC_QUERY_INVALID')),
      ).toEqual(['select']);
    });

    it('answers 400 naming select[author] when the relation is not included', async () => {
      const res = await request(t.server).get('/books?select[author]=name');
      expect(res.status).toBe(400);
      expect(namedIn(res.body as Problem)).toEqual(['select[author]']);
    });

    it.each([['include=author'], ['search[query]=alpha'], ['page[number]=2']])(
      'answers 400 SVC_QUERY_UNSUPPORTED_PARAM to %s, which this resource does not take',
      async (query) => {
        const problem = expectProblem(
          await request(t.server).get(`/books?${query}`),
          400,
          'SVC_QUERY_UNSUPPORTED_PARAM',
        );
        expect(namedIn(problem)).toEqual([decodeURIComponent(query.split('=')[0]!)]);
      },
    );

    it('answers 400 for a repeated limit', async () => {
      expect(
        namedIn(expectProblem(await request(t.server).get('/books?limit=1&limit=2'), 400, 'SVC_QUERY_INVALID')),
      ).toEqual(['limit']);
    });
  });

  describe('SQL injection attempts', () => {
    it.each([
      ['an equality value', `filter[title][eq]=${encodeURIComponent(INJECTION)}`, [INJECTION]],
      ['a contains value', `filter[title][contains]=${encodeURIComponent("' OR '1'='1")}`, []],
      ['an in list', `filter[title][in]=${encodeURIComponent("Alpha') OR ('1'='1")}`, []],
      [
        'a JSON filter value',
        `filter=${encodeURIComponent(JSON.stringify({ title: { startsWith: "x' OR 1=1 --" } }))}`,
        [],
      ],
    ])('treats %s as data', async (_where, query, expected) => {
      expect(await titles(query)).toEqual(expected);
    });

    it('refuses injections in numbers, sort and field names with 400', async () => {
      expectProblem(
        await request(t.server).get(`/books?filter[pages][eq]=${encodeURIComponent('1 OR 1=1')}`),
        400,
        'SVC_QUERY_INVALID',
      );
      expectProblem(
        await request(t.server).get(`/books?sort=${encodeURIComponent('title; DROP TABLE book')}`),
        400,
        'SVC_QUERY_INVALID',
      );
      expectProblem(
        await request(t.server).get(`/books?${encodeURIComponent('filter[title) OR 1=1 --][eq]')}=x`),
        400,
        'SVC_QUERY_INVALID',
      );
    });

    it('leaves the tables intact', async () => {
      expect(await countRows(t.dataSource, Book)).toBe(BOOKS.length);
      expect(expectList(await request(t.server).get('/books')).total).toBe(BOOKS.length);
    });
  });
});
