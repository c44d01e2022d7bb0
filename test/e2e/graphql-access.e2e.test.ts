/**
 * Access per caller over GraphQL (`access`), two tenants by three roles on each database: one schema serves every
 * caller (the widest view), and a field the caller's role may not read is answered as a field error SVC_FORBIDDEN with
 * null, never its value, on the root row, on related rows two levels down and on a mutation's answer. Relation fields
 * reach a target only where the caller may list it, with the columns its role reads there; a filter on a column the
 * role may not read is refused, a write of a field it may not write is refused naming it, and no tenant reads another's
 * rows.
 */
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, errorOf, postGraphql, type GraphqlAnswer } from './support/graphql-http';
import {
  ACCESS_ENTITIES,
  AcAuthor,
  AcBook,
  AcReview,
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  REVIEW_CONFIG,
} from './support/access-fixtures';

interface Book {
  readonly id?: string;
  readonly title?: string;
  readonly tenant?: string;
  readonly cost?: number | null;
  readonly author?: { readonly name?: string; readonly email?: string | null } | null;
}

/** The paths of an answer's SVC_FORBIDDEN errors, each joined by dots. */
function forbiddenPaths(answer: GraphqlAnswer<unknown>): string[] {
  return (answer.errors ?? [])
    .filter((error) => error.extensions?.code === 'SVC_FORBIDDEN')
    .map((error) => (error.path ?? []).join('.'))
    .sort();
}

describe.each(TEST_DATABASES)('Access per caller over GraphQL on $name', (db) => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_graphql_access',
      entities: ACCESS_ENTITIES,
      controllers: [
        svcController('books', AcBook, BOOK_CONFIG),
        svcController('authors', AcAuthor, AUTHOR_CONFIG),
        svcController('reviews', AcReview, REVIEW_CONFIG),
      ],
      svc: { graphql: true },
    });
    const authors = t.dataSource.getRepository(AcAuthor);
    const ann = await authors.save({ tenant: 'a', name: 'Ann', email: 'ann@a.test' });
    const bob = await authors.save({ tenant: 'b', name: 'Bob', email: 'bob@b.test' });
    const books = t.dataSource.getRepository(AcBook);
    const a1 = await books.save({ tenant: 'a', title: 'A one', price: 20, cost: 7, authorId: ann.id });
    const a2 = await books.save({ tenant: 'a', title: 'A two', price: 30, cost: 9, authorId: ann.id });
    const b1 = await books.save({ tenant: 'b', title: 'B one', price: 40, cost: 11, authorId: bob.id });
    const reviews = t.dataSource.getRepository(AcReview);
    await reviews.save([
      { tenant: 'a', rating: 4, bookId: a1.id },
      { tenant: 'b', rating: 2, bookId: b1.id },
    ]);
    Object.assign(ids, { ann: String(ann.id), bob: String(bob.id), a1: String(a1.id), a2: String(a2.id) });
    ids['b1'] = String(b1.id);
  });

  afterAll(async () => {
    await t?.close();
  });

  const as = <T = Record<string, unknown>>(tenant: string, role: string, query: string) =>
    postGraphql<T>(t.server, { query, headers: { 'x-tenant': tenant, 'x-role': role } });
  const bookRow = (name: string) => t.dataSource.getRepository(AcBook).findOneByOrFail({ id: Number(ids[name]) });

  describe('one schema', () => {
    it('serves every role the same types, the cost nullable since a role may not read it', async () => {
      const query = '{ __type(name: "AcBook") { fields { name type { kind name } } } }';
      const reader = dataOf(await as('a', 'reader', query));
      expect(dataOf(await as('a', 'admin', query))).toEqual(reader);
      const fields = (reader['__type'] as { fields: { name: string; type: { kind: string; name: string } }[] }).fields;
      expect(fields.find((field) => field.name === 'cost')?.type).toEqual({ kind: 'SCALAR', name: 'Int' });
      expect(fields.find((field) => field.name === 'title')?.type.kind).toBe('NON_NULL');
    });
  });

  describe('reading', () => {
    it.each([
      ['a', 'reader'],
      ['a', 'editor'],
      ['b', 'reader'],
    ])('tenant %s as %s: the cost is a field error SVC_FORBIDDEN with null, the rest served', async (tenant, role) => {
      const answer = await as<{ acBooks: { items: Book[] } }>(
        tenant,
        role,
        '{ acBooks(sort: ["title"]) { items { title tenant cost } } }',
      );
      expect(answer.status).toBe(200);
      const items = answer.data!.acBooks.items;
      expect(items.length).toBe(tenant === 'a' ? 2 : 1);
      for (const item of items) expect(item).toEqual({ title: expect.any(String), tenant, cost: null });
      expect(forbiddenPaths(answer)).toEqual(items.map((_, index) => `acBooks.items.${index}.cost`));
      // No value of the cost anywhere: not in the data, not in an error.
      expect(JSON.stringify(answer)).not.toMatch(/"cost":\s*\d/);
      for (const cost of ['7', '9', '11']) expect(JSON.stringify(answer.errors)).not.toContain(cost);
      const error = errorOf(answer, 'SVC_FORBIDDEN');
      expect(error.message).toContain('cost');
      expect(error.extensions?.problem?.status).toBe(403);
    });

    it('a read by id answers the cost as refused, and a selection without it has no error', async () => {
      const one = await as<{ acBook: Book }>('a', 'reader', `{ acBook(id: "${ids['a1']}") { title cost } }`);
      expect(one.data).toEqual({ acBook: { title: 'A one', cost: null } });
      expect(forbiddenPaths(one)).toEqual(['acBook.cost']);
      const without = await as<{ acBooks: { items: Book[] } }>('a', 'reader', '{ acBooks { items { title } } }');
      expect(dataOf(without).acBooks.items.length).toBe(2);
    });

    it('an admin reads the cost, and nothing of the other tenant', async () => {
      const answer = await as<{ acBooks: { items: Book[] } }>(
        'a',
        'admin',
        '{ acBooks(sort: ["title"]) { items { title cost } } }',
      );
      expect(dataOf(answer).acBooks.items).toEqual([
        { title: 'A one', cost: 7 },
        { title: 'A two', cost: 9 },
      ]);
      errorOf(await as('a', 'admin', `{ acBook(id: "${ids['b1']}") { title cost } }`), 'SVC_NOT_FOUND');
    });

    it('tenant b never sees tenant a’s rows, whatever its role', async () => {
      for (const role of ['reader', 'editor', 'admin']) {
        const answer = await as<{ acBooks: { items: Book[] }; acReviews: { items: { book: Book | null }[] } }>(
          'b',
          role,
          '{ acBooks { items { title tenant } } acReviews { items { book { title tenant } } } }',
        );
        const data = dataOf(answer);
        expect(data.acBooks.items).toEqual([{ title: 'B one', tenant: 'b' }]);
        expect(data.acReviews.items).toEqual([{ book: { title: 'B one', tenant: 'b' } }]);
        errorOf(await as('b', role, `{ acBook(id: "${ids['a1']}") { title } }`), 'SVC_NOT_FOUND');
      }
    });

    it('a reader’s filter on the cost is refused as unknown; the admin’s is answered', async () => {
      const query = '{ acBooks(filter: { cost: { gt: 0 } }) { items { title } } }';
      const refused = await as('a', 'reader', query);
      const error = errorOf(refused, 'SVC_QUERY_INVALID');
      expect(JSON.stringify(error)).toContain('cost');
      expect(dataOf(await as<{ acBooks: { items: Book[] } }>('a', 'admin', query)).acBooks.items.length).toBe(2);
      errorOf(
        await as('a', 'reader', '{ acReviews(filter: { book: { cost: { gt: 0 } } }) { items { rating } } }'),
        'SVC_QUERY_INVALID',
      );
    });
  });

  describe('relation fields', () => {
    const deep = '{ acReviews { items { rating book { title cost author { name email } } } } }';

    it('two levels deep, a reader gets each target’s columns for its role there, the rest refused', async () => {
      const answer = await as<{ acReviews: { items: { rating: number; book: Book }[] } }>('a', 'reader', deep);
      expect(answer.data!.acReviews.items).toEqual([
        { rating: 4, book: { title: 'A one', cost: null, author: { name: 'Ann', email: null } } },
      ]);
      expect(forbiddenPaths(answer)).toEqual(['acReviews.items.0.book.author.email', 'acReviews.items.0.book.cost']);
      expect(JSON.stringify(answer)).not.toContain('ann@a.test');
      expect(JSON.stringify(answer)).not.toMatch(/"cost":\s*\d/);
    });

    it('two levels deep, an admin gets every column', async () => {
      const answer = await as<{ acReviews: { items: { rating: number; book: Book }[] } }>('a', 'admin', deep);
      expect(dataOf(answer).acReviews.items).toEqual([
        { rating: 4, book: { title: 'A one', cost: 7, author: { name: 'Ann', email: 'ann@a.test' } } },
      ]);
    });

    it('an author’s books, for a reader: the cost of each refused', async () => {
      const answer = await as<{ acAuthors: { items: { name: string; email: string | null; books: Book[] }[] } }>(
        'a',
        'reader',
        '{ acAuthors { items { name email books { title cost } } } }',
      );
      const [ann] = answer.data!.acAuthors.items;
      expect(ann).toEqual({
        name: 'Ann',
        email: null,
        books: expect.arrayContaining([{ title: 'A one', cost: null }]) as unknown,
      });
      expect(forbiddenPaths(answer)).toEqual([
        'acAuthors.items.0.books.0.cost',
        'acAuthors.items.0.books.1.cost',
        'acAuthors.items.0.email',
      ]);
    });

    it('a caller the books’ policy refuses gets book: null and no books, never an error', async () => {
      errorOf(await as('a', 'blocked', '{ acBooks { items { title } } }'), 'SVC_FORBIDDEN');
      const reviews = await as<{ acReviews: { items: { rating: number; book: Book | null }[] } }>(
        'a',
        'blocked',
        '{ acReviews { items { rating book { title cost } } } }',
      );
      expect(dataOf(reviews).acReviews.items).toEqual([{ rating: 4, book: null }]);
      const authors = await as<{ acAuthors: { items: { name: string; books: Book[] }[] } }>(
        'a',
        'blocked',
        '{ acAuthors { items { name books { title cost } } } }',
      );
      expect(dataOf(authors).acAuthors.items).toEqual([{ name: 'Ann', books: [] }]);
    });
  });

  describe('mutations', () => {
    it('an editor’s patch writing the status is refused naming it, and nothing is written', async () => {
      const answer = await as(
        'a',
        'editor',
        `mutation { patchAcBook(id: "${ids['a2']}", input: { title: "never", status: "live" }) { title } }`,
      );
      const error = errorOf(answer, 'SVC_VALIDATION_FAILED');
      expect(JSON.stringify(error.extensions?.problem)).toContain('status');
      const row = await bookRow('a2');
      expect([row.title, row.status]).toEqual(['A two', 'draft']);
    });

    it('an editor’s patch of the title works, its answer’s cost refused', async () => {
      const answer = await as<{ patchAcBook: Book }>(
        'a',
        'editor',
        `mutation { patchAcBook(id: "${ids['a2']}", input: { title: "A two, edited" }) { title cost } }`,
      );
      expect(answer.data).toEqual({ patchAcBook: { title: 'A two, edited', cost: null } });
      expect(forbiddenPaths(answer)).toEqual(['patchAcBook.cost']);
      expect((await bookRow('a2')).title).toBe('A two, edited');
    });

    it('an editor’s create answers its relations as its role reads them there', async () => {
      const answer = await as<{ createAcBook: Book }>(
        'a',
        'editor',
        `mutation { createAcBook(input: { title: "E new", price: 5, authorId: ${ids['ann']} }) {
          title tenant cost author { name email } } }`,
      );
      expect(answer.data).toEqual({
        createAcBook: { title: 'E new', tenant: 'a', cost: null, author: { name: 'Ann', email: null } },
      });
      expect(forbiddenPaths(answer)).toEqual(['createAcBook.author.email', 'createAcBook.cost']);
    });

    it('an editor’s batch create answers each row’s cost as refused', async () => {
      const answer = await as<{ createAcBooks: { items: Book[]; total: number } }>(
        'a',
        'editor',
        'mutation { createAcBooks(input: [{ title: "E b1", price: 1 }, { title: "E b2", price: 2 }]) { items { title cost } total } }',
      );
      expect(answer.data).toEqual({
        createAcBooks: {
          items: [
            { title: 'E b1', cost: null },
            { title: 'E b2', cost: null },
          ],
          total: 2,
        },
      });
      expect(forbiddenPaths(answer)).toEqual(['createAcBooks.items.0.cost', 'createAcBooks.items.1.cost']);
    });

    it('an admin’s patch answers the cost', async () => {
      const answer = await as<{ patchAcBook: Book }>(
        'a',
        'admin',
        `mutation { patchAcBook(id: "${ids['a1']}", input: { status: "live" }) { title cost } }`,
      );
      expect(dataOf(answer).patchAcBook).toEqual({ title: 'A one', cost: 7 });
      expect((await bookRow('a1')).status).toBe('live');
    });
  });
});
