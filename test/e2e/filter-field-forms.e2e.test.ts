/**
 * `filter.fields` in each of its forms is an allowlist of fields: the map form names the filterable fields with their
 * operators, the array form names them with every operator of their kind, `{ exclude }` opens every own column but
 * those, and only the default opens every served own column. Over REST and in the GraphQL filter input, on every
 * database.
 */
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book, Note, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectList, expectProblem, namedIn, pluck } from './support/e2e-http';
import { dataOf, postGraphql } from './support/graphql-http';

describe.each(TEST_DATABASES)('filter.fields on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_filter_field_forms',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { filter: { fields: { title: ['eq', 'contains'], pages: ['gte'] } } }),
        svcController('authors', Author, { filter: { fields: ['name'] } }),
        svcController('notes', Note, { filter: { fields: { exclude: ['text'] } } }),
        svcController('tags', Tag),
      ],
      svc: { graphql: {} },
    });
    await t.dataSource.getRepository(Book).insert([
      { title: 'Kindred', pages: 264, isbn: 'K-1', published: true },
      { title: 'Dawn', pages: 248, isbn: 'D-1', published: false },
    ]);
    await t.dataSource.getRepository(Author).insert([
      { name: 'Octavia', country: 'US' },
      { name: 'Ursula', country: 'US' },
    ]);
    await t.dataSource.getRepository(Note).insert([
      { text: 'first', priority: 'high' },
      { text: 'second', priority: 'low' },
    ]);
    await t.dataSource.getRepository(Tag).insert([{ name: 'classic' }, { name: 'sci-fi' }]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const list = async (path: string) => expectList(await request(t.server).get(path)).items;
  const refused = async (path: string) =>
    namedIn(expectProblem(await request(t.server).get(path), 400, 'SVC_QUERY_INVALID'));
  /** The fields of an entity's GraphQL filter input, but its `and`, `or` and `not`. */
  const filterInputFields = async (type: string) => {
    const answer = await postGraphql<{ __type: { inputFields: { name: string }[] } }>(t.server, {
      query: `{ __type(name: "${type}") { inputFields { name } } }`,
    });
    return dataOf(answer)
      .__type.inputFields.map((field) => field.name)
      .filter((name) => !['and', 'or', 'not'].includes(name));
  };

  describe('in the map form', () => {
    it('filters on a named field with a listed operator', async () => {
      expect(pluck(await list('/books?filter[title][contains]=ind'), 'title')).toEqual(['Kindred']);
      expect(pluck(await list('/books?filter[pages][gte]=250'), 'title')).toEqual(['Kindred']);
    });

    it('refuses an own column it does not name with 400 SVC_QUERY_INVALID naming it', async () => {
      expect(await refused('/books?filter[isbn][eq]=K-1')).toEqual(['filter[isbn]']);
      expect(await refused('/books?filter[published][eq]=true')).toEqual(['filter[published]']);
      expect(await refused('/books?filter[id][eq]=1')).toEqual(['filter[id]']);
    });

    it('refuses the unnamed column in the JSON form and inside a group too', async () => {
      const json = encodeURIComponent('{"or":[{"title":{"eq":"Dawn"}},{"updatedAt":{"isNotNull":true}}]}');
      expect((await refused(`/books?filter=${json}`)).join()).toContain('updatedAt');
    });

    it('refuses an operator it does not list for a named field', async () => {
      expect(await refused('/books?filter[pages][lte]=300')).toEqual(['filter[pages][lte]']);
    });

    it('leaves the unnamed columns out of the GraphQL filter input', async () => {
      expect(await filterInputFields('BookFilter')).toEqual(['title', 'pages']);
    });
  });

  describe('in the array form', () => {
    it('filters on a listed field with every operator of its kind', async () => {
      expect(pluck(await list('/authors?filter[name][startsWith]=Oct'), 'name')).toEqual(['Octavia']);
    });

    it('refuses an own column it does not list with 400 SVC_QUERY_INVALID naming it', async () => {
      expect(await refused('/authors?filter[country][eq]=US')).toEqual(['filter[country]']);
    });

    it('puts only the listed fields in the GraphQL filter input', async () => {
      expect(await filterInputFields('AuthorFilter')).toEqual(['name']);
    });
  });

  describe('in the { exclude } form', () => {
    it('filters on every own column but the excluded ones', async () => {
      expect(pluck(await list('/notes?filter[priority][eq]=high'), 'text')).toEqual(['first']);
      expect(await list('/notes?filter[due][isNull]=true')).toHaveLength(2);
    });

    it('refuses an excluded column with 400 SVC_QUERY_INVALID naming it', async () => {
      expect(await refused('/notes?filter[text][eq]=first')).toEqual(['filter[text]']);
    });

    it('leaves only the excluded columns out of the GraphQL filter input', async () => {
      const fields = await filterInputFields('NoteFilter');
      expect(fields).not.toContain('text');
      expect(fields).toEqual(expect.arrayContaining(['id', 'priority', 'due']));
    });
  });

  describe('when it is unset', () => {
    it('filters on every own column with every operator of its kind', async () => {
      expect(pluck(await list('/tags?filter[name][endsWith]=fi'), 'name')).toEqual(['sci-fi']);
      const [classic] = await list('/tags?filter[name][eq]=classic');
      expect(pluck(await list(`/tags?filter[id][in]=${String(classic!['id'])}`), 'name')).toEqual(['classic']);
    });

    it('puts every own column in the GraphQL filter input', async () => {
      expect(await filterInputFields('TagFilter')).toEqual(['id', 'name']);
    });
  });
});
