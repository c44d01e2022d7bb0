/**
 * The GraphQL binding over HTTP on every database: the schema derived from the served entities, every standard
 * operation as a query or mutation, typed filters and their limits, errors with their SVC_* code and problem, and the
 * request reaching policy.
 */
import type { SvcContext } from '@svc/core';
import { buildSvcSchema, plannedExecute } from '@svc/graphql';
import { SvcRegistry } from '@svc/nestjs';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { Author, BOOKSTORE_ENTITIES, Book, Note, Review, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, errorOf, postGraphql, type GraphqlAnswer } from './support/graphql-http';

function headerOf(context: SvcContext, name: string): string | undefined {
  const value = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.[name];
  return typeof value === 'string' ? value : undefined;
}

interface BookRow {
  id: string;
  title: string;
  pages: number;
  author?: { name: string } | null;
  tags?: { name: string }[];
}

describe.each(TEST_DATABASES)('GraphQL operations on $name', (db) => {
  let t: TestApp;
  const counter = new StatementCounter();
  const gql = <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, role = 'editor') =>
    postGraphql<T>(t.server, { query, variables, headers: { 'x-role': role } });

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_graphql_ops',
      entities: BOOKSTORE_ENTITIES,
      dataSource: { logging: true, logger: counter },
      controllers: [
        svcController('authors', Author, { include: { fields: ['books'], limits: { maxDepth: 1 } } }),
        svcController('books', Book, {
          select: { fields: { exclude: ['isbn'] } },
          filter: {
            fields: { title: ['eq', 'contains'], pages: ['gte', 'lte', 'in', 'between'], 'author.name': ['eq'] },
            limits: { maxInValues: 3 },
          },
          sort: { fields: ['title', 'pages', 'id'] },
          search: { fields: ['title'] },
          include: { fields: ['author', 'tags'] },
        }),
        svcController('tags', Tag, { operations: { findMany: true, findOne: true } }),
        svcController('notes', Note),
        svcController('reviews', Review, { pagination: { strategy: 'cursor' }, sort: { default: ['id'] } }),
      ],
      svc: {
        graphql: { exclude: ['Review'] },
        // Every write needs the editor role, read from the HTTP request the GraphQL context carries.
        policy: ({ operation, context }) => operation.startsWith('find') || headerOf(context, 'x-role') === 'editor',
      },
    });
    const authors = await t.dataSource.getRepository(Author).save([{ name: 'Ann', country: 'UK' }, { name: 'Bob' }]);
    const tags = await t.dataSource.getRepository(Tag).save([{ name: 'red' }, { name: 'blue' }]);
    await t.dataSource.getRepository(Book).save(
      Array.from({ length: 30 }, (_, i) => ({
        title: `Book ${String(i).padStart(2, '0')}`,
        pages: i * 10,
        author: authors[i % 2]!,
        tags: i % 3 === 0 ? tags : [],
      })),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  /** This app's GraphQL schema, built again with a gate that hears each operation it is asked to let through. */
  const gatedSchema = (heard: (operation: string) => unknown) =>
    buildSvcSchema(t.app.get(SvcRegistry).instance, {
      exclude: ['Review'],
      gate: async ({ operation }) => void heard(operation),
    });
  /** `plannedExecute` as the GraphQL handler calls it, for a caller with no headers. */
  const runPlanned = (schema: GraphQLSchema, document: DocumentNode) =>
    plannedExecute({ schema, document, contextValue: { request: { headers: {} } } });

  describe('the schema', () => {
    let sdl: GraphqlAnswer<{ __schema: { types: { name: string; fields: { name: string }[] | null }[] } }>;
    const typeNamed = (name: string) => dataOf(sdl).__schema.types.find((type) => type.name === name);
    const fieldsOf = (name: string) => (typeNamed(name)?.fields ?? []).map((field) => field.name);

    beforeAll(async () => {
      sdl = await gql('{ __schema { types { name fields { name } } } }');
    });

    it('has a type per served entity with the columns it serves and its includable relations', () => {
      expect(fieldsOf('Book')).toEqual(
        expect.arrayContaining(['id', 'title', 'pages', 'rating', 'published', 'authorId', 'author', 'tags']),
      );
      expect(fieldsOf('Author')).toContain('books');
    });

    it('leaves a field outside select.fields out of the type', () => {
      expect(fieldsOf('Book')).not.toContain('isbn');
    });

    it('serves a query and a plural list per entity, by English rules', () => {
      expect(fieldsOf('Query')).toEqual(
        expect.arrayContaining(['author', 'authors', 'book', 'books', 'tag', 'tags', 'note', 'notes']),
      );
    });

    it('has no mutation for an operation that is off, and leaves out excluded entities', () => {
      expect(fieldsOf('Mutation')).toEqual(
        expect.arrayContaining(['createBook', 'updateBook', 'patchBook', 'deleteBook', 'restoreBook', 'purgeBook']),
      );
      expect(fieldsOf('Mutation')).not.toContain('createTag');
      expect(fieldsOf('Mutation')).not.toContain('restoreAuthor');
      expect(typeNamed('Review')).toBeUndefined();
      expect(fieldsOf('Query')).not.toContain('reviews');
    });

    it('offers each filterable field exactly its allowed operators', async () => {
      const answer = await gql<{ __type: { inputFields: { name: string }[] } }>(
        '{ __type(name: "BookPagesFilter") { inputFields { name } } }',
      );
      expect(dataOf(answer).__type.inputFields.map((field) => field.name)).toEqual(['gte', 'lte', 'in', 'between']);
    });
  });

  describe('reads', () => {
    it('pages a list with filter, sort, limit and offset, and reports the envelope', async () => {
      const answer = await gql<{ books: { total: number; limit: number; offset: number; items: BookRow[] } }>(
        `{ books(filter: { pages: { gte: 100 }, author: { name: { eq: "Ann" } } }, sort: ["-pages"], limit: 3, offset: 1) {
            total limit offset items { id title pages } } }`,
      );
      const { books } = dataOf(answer);
      expect(books).toMatchObject({ total: 10, limit: 3, offset: 1 });
      expect(books.items.map((book) => book.pages)).toEqual([260, 240, 220]);
      expect(typeof books.items[0]!.id).toBe('string');
    });

    it('answers a key aliased __proto__ as any other key', async () => {
      const answer = await gql('{ __proto__: books(limit: 1) { items { __proto__: title } } }');
      const data = dataOf(answer) as Record<string, { items: Record<string, unknown>[] }>;
      expect(Object.hasOwn(data, '__proto__')).toBe(true);
      expect(Object.hasOwn(data['__proto__']!.items[0]!, '__proto__')).toBe(true);
      expect(data['__proto__']!.items[0]!['__proto__']).toBe('Book 00');
    });

    it('runs a document against the schema it is given, whichever schema ran it before', async () => {
      const calls: string[] = [];
      const schemas = ['first', 'second'].map((name) => gatedSchema(() => calls.push(name)));
      const document = parse('{ books(limit: 1) { items { title } } }');
      for (const schema of schemas) {
        expect(await runPlanned(schema, document)).toEqual({ data: { books: { items: [{ title: 'Book 00' }] } } });
      }
      expect(calls).toEqual(['first', 'second']);
    });

    it('searches when search is on', async () => {
      const answer = await gql<{ books: { total: number } }>('{ books(search: "Book 1") { total } }');
      expect(dataOf(answer).books.total).toBe(10);
    });

    it('reads one row by ID with its relations', async () => {
      const answer = await gql<{ book: BookRow }>('{ book(id: "1") { id title author { name } tags { name } } }');
      expect(dataOf(answer).book).toEqual({
        id: '1',
        title: 'Book 00',
        author: { name: 'Ann' },
        tags: expect.arrayContaining([{ name: 'red' }, { name: 'blue' }]),
      });
    });

    it('nests relations through the target entity’s own include (author.books)', async () => {
      const answer = await gql<{ book: { author: { name: string; books: { title: string }[] } } }>(
        '{ book(id: "2") { author { name books { title } } } }',
      );
      expect(dataOf(answer).book.author.name).toBe('Bob');
      expect(dataOf(answer).book.author.books).toHaveLength(15);
    });

    it('reads fields selected through fragments and aliases, relations merged into one include', async () => {
      const answer = await gql<{
        books: { items: { t: string; a: { n: string }; author: { country: string | null } }[] };
      }>(
        `{ books(limit: 2, sort: ["id"]) { items { ...Shape a: author { n: name } } } }
         fragment Shape on Book { t: title ... on Book { author { country } } }`,
      );
      expect(dataOf(answer).books.items).toEqual([
        { t: 'Book 00', author: { country: 'UK' }, a: { n: 'Ann' } },
        { t: 'Book 01', author: { country: null }, a: { n: 'Bob' } },
      ]);
    });

    it('holds include.limits as the depth of relation fields, naming include', async () => {
      const answer = await gql('{ authors { items { books { author { name } } } } }');
      const error = errorOf(answer, 'SVC_QUERY_INVALID');
      expect(error.extensions?.problem?.errors?.[0]).toMatchObject({ param: 'include', code: 'too_deep' });
      expect(answer.data).toBeNull();
    });

    it('answers a missing row with SVC_NOT_FOUND and keeps the other fields (partial data)', async () => {
      const answer = await gql<{ book: null; tags: { total: number } }>('{ book(id: "99999") { id } tags { total } }');
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ book: null, tags: { total: 2 } });
      const error = errorOf(answer, 'SVC_NOT_FOUND');
      expect(error.path).toEqual(['book']);
      expect(error.extensions?.problem).toMatchObject({ status: 404, code: 'SVC_NOT_FOUND' });
    });

    it('runs each root field once when one fails: the answer is completed from what the others read', async () => {
      const alone = await counter.during(async () => dataOf(await gql('{ tags { total } }')));
      const missing = await counter.during(async () => gql('{ book(id: "99999") { id } }'));
      const calls: string[] = [];
      const schema = gatedSchema((operation) => calls.push(operation));
      const document = parse('{ book(id: "99999") { id } tags { total } late: book(id: "1") { title pages } }');
      let answer: Awaited<ReturnType<typeof plannedExecute>> | undefined;
      const both = await counter.during(async () => (answer = await runPlanned(schema, document)));
      expect(answer?.data).toEqual({ book: null, tags: { total: 2 }, late: { title: 'Book 00', pages: 0 } });
      expect(answer?.errors?.map((error) => error.path)).toEqual([['book']]);
      expect(calls.sort()).toEqual(['findMany', 'findOne', 'findOne']);
      const one = await counter.during(async () => gql('{ book(id: "1") { title pages } }'));
      expect(both).toBe(alone + missing + one);
    });
  });

  describe('typed filters', () => {
    it('refuses an operator the field does not allow before it runs (GraphQL validation, 400)', async () => {
      const answer = await gql('{ books(filter: { title: { startsWith: "B" } }) { total } }');
      expect(answer.status).toBe(400);
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.[0]?.message).toMatch(/startsWith/);
    });

    it('refuses a field that is not filterable: a column outside select.fields is no oracle', async () => {
      const answer = await gql('{ books(filter: { isbn: { eq: "1" } }) { total } }');
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0]?.message).toMatch(/isbn/);
    });

    it('holds the wire limits: too many in-list values is SVC_QUERY_INVALID naming the parameter', async () => {
      const answer = await gql('{ books(filter: { pages: { in: [1, 2, 3, 4] } }) { total } }');
      const error = errorOf(answer, 'SVC_QUERY_INVALID');
      expect(error.extensions?.problem?.errors?.[0]).toMatchObject({
        param: 'filter[pages][in]',
        code: 'too_many_values',
      });
    });

    it('groups with or and not, and nests relation paths', async () => {
      const answer = await gql<{ books: { total: number } }>(
        `{ books(filter: { or: [{ pages: { lte: 20 } }, { not: { author: { name: { eq: "Ann" } } } }] }) { total } }`,
      );
      // pages 0, 10, 20 (books 0-2) or Bob's books (the odd ones, 15): 2 of the first three are Ann's.
      expect(dataOf(answer).books.total).toBe(17);
    });

    it('takes a null filter as no filter, and refuses a null inside one by name', async () => {
      expect(dataOf(await gql<{ books: { total: number } }>('{ books(filter: null) { total } }')).books.total).toBe(30);
      const answer = await gql('{ books(filter: { title: { eq: null } }) { total } }');
      expect(errorOf(answer, 'SVC_QUERY_INVALID').extensions?.problem?.errors?.[0]).toMatchObject({
        param: 'filter[title][eq]',
      });
    });

    it('refuses between with one value', async () => {
      const answer = await gql('{ books(filter: { pages: { between: [1] } }) { total } }');
      expect(errorOf(answer, 'SVC_QUERY_INVALID').message).toMatch(/two values/);
    });

    it('holds the nesting limit on and/or/not', async () => {
      const answer = await gql(
        '{ books(filter: { not: { not: { not: { not: { pages: { gte: 1 } } } } } }) { total } }',
      );
      errorOf(answer, 'SVC_QUERY_INVALID');
    });

    it('refuses a filter nested thousands of levels deep, in the document or the variables, as a request error', async () => {
      let literal = '{ pages: { eq: 1 } }';
      for (let i = 0; i < 3000; i++) literal = `{ not: ${literal} }`;
      const inDocument = await gql(`{ books(filter: ${literal}) { total } }`);
      expect(inDocument.status).toBe(400);
      expect(errorOf(inDocument, 'SVC_QUERY_INVALID').extensions?.problem?.errors).toEqual([
        expect.objectContaining({ param: 'query', code: 'too_deep' }),
      ]);
      let filter: Record<string, unknown> = { pages: { eq: 1 } };
      for (let i = 0; i < 3000; i++) filter = { not: filter };
      const query = 'query ($f: BookFilter) { books(filter: $f) { total } }';
      const inVariables = await postGraphql(t.server, { query, variables: { f: filter } });
      expect(inVariables.status).toBe(400);
      expect(errorOf(inVariables, 'SVC_QUERY_INVALID').extensions?.problem?.errors).toEqual([
        expect.objectContaining({ param: 'variables', code: 'too_deep' }),
      ]);
      // Within that bound, the filter's own nesting limit answers.
      filter = { pages: { gte: 1 } };
      for (let i = 0; i < 900; i++) filter = { not: filter };
      errorOf(await postGraphql(t.server, { query, variables: { f: filter } }), 'SVC_QUERY_INVALID');
    });

    it('refuses a sort key that is not allowed, naming it', async () => {
      const answer = await gql('{ books(sort: ["rating"]) { total } }');
      expect(errorOf(answer, 'SVC_QUERY_INVALID').message).toMatch(/rating/);
    });
  });

  describe('writes', () => {
    it('creates, updates, patches, deletes, restores and purges a row', async () => {
      const created = await gql<{ createBook: BookRow }>(
        'mutation($input: BookCreateInput!) { createBook(input: $input) { id title pages author { name } } }',
        { input: { title: 'New', pages: 5, author: { id: '1' } } },
      );
      const book = dataOf(created).createBook;
      expect(book).toMatchObject({ title: 'New', pages: 5, author: { name: 'Ann' } });
      const updated = await gql<{ updateBook: BookRow }>(
        `mutation { updateBook(id: "${book.id}", input: { title: "Replaced" }) { title pages } }`,
      );
      expect(dataOf(updated).updateBook).toEqual({ title: 'Replaced', pages: 0 });
      const patched = await gql<{ patchBook: BookRow }>(
        `mutation { patchBook(id: "${book.id}", input: { pages: 7 }) { title pages } }`,
      );
      expect(dataOf(patched).patchBook).toEqual({ title: 'Replaced', pages: 7 });
      expect(dataOf(await gql(`mutation { deleteBook(id: "${book.id}") }`))).toEqual({ deleteBook: true });
      errorOf(await gql(`{ book(id: "${book.id}") { id } }`), 'SVC_NOT_FOUND');
      const restored = await gql<{ restoreBook: BookRow }>(`mutation { restoreBook(id: "${book.id}") { title } }`);
      expect(dataOf(restored).restoreBook).toEqual({ title: 'Replaced' });
      await gql(`mutation { deleteBook(id: "${book.id}") }`);
      expect(dataOf(await gql(`mutation { purgeBook(id: "${book.id}") }`))).toEqual({ purgeBook: true });
      expect(
        await t.dataSource.getRepository(Book).findOne({ where: { id: Number(book.id) }, withDeleted: true }),
      ).toBeNull();
    });

    it('refuses a mutation whose answer reaches past include.limits before it writes anything', async () => {
      const deep = 'id author { books { author { books { id } } } }';
      const books = t.dataSource.getRepository(Book);
      const before = await books.count({ withDeleted: true });
      const created = await gql(`mutation { createBook(input: { title: "Never" }) { ${deep} } }`);
      expect(errorOf(created, 'SVC_QUERY_INVALID').extensions?.problem?.errors?.[0]).toMatchObject({
        param: 'include',
      });
      expect(await books.count({ withDeleted: true })).toBe(before);
      const target = await books.save({ title: 'Kept', pages: 1 });
      for (const mutation of [
        `updateBook(id: "${target.id}", input: { title: "Changed" })`,
        `patchBook(id: "${target.id}", input: { title: "Changed" })`,
      ]) {
        errorOf(await gql(`mutation { ${mutation} { ${deep} } }`), 'SVC_QUERY_INVALID');
        expect((await books.findOneByOrFail({ id: target.id })).title).toBe('Kept');
      }
      await books.softDelete(target.id);
      errorOf(await gql(`mutation { restoreBook(id: "${target.id}") { ${deep} } }`), 'SVC_QUERY_INVALID');
      expect((await books.findOneOrFail({ where: { id: target.id }, withDeleted: true })).deletedAt).not.toBeNull();
      await books.delete(target.id);
    });

    it('requires the required create fields in the type (non-null)', async () => {
      const answer = await gql('mutation { createBook(input: { pages: 1 }) { id } }');
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0]?.message).toMatch(/title/);
    });

    it('answers a body the slot refuses with SVC_VALIDATION_FAILED and its problem', async () => {
      const answer = await gql('mutation { patchBook(id: "1", input: {}) { id } }');
      expect(answer.data).toEqual({ patchBook: null });
      expect(errorOf(answer, 'SVC_VALIDATION_FAILED').extensions?.problem?.status).toBe(400);
    });

    it('answers a reference to a missing row with SVC_UNRESOLVED_RELATION', async () => {
      const answer = await gql('mutation { createBook(input: { title: "X", author: { id: "4242" } }) { id } }');
      errorOf(answer, 'SVC_UNRESOLVED_RELATION');
    });

    it('answers a unique violation with SVC_CONFLICT', async () => {
      const answer = await gql('mutation { createAuthor(input: { name: "Ann" }) { id } }');
      errorOf(answer, 'SVC_CONFLICT');
    });

    it('hands the HTTP request to policy: a caller without the role is SVC_FORBIDDEN', async () => {
      const answer = await gql('mutation { createAuthor(input: { name: "Zed" }) { id } }', undefined, 'reader');
      expect(errorOf(answer, 'SVC_FORBIDDEN').extensions?.problem?.status).toBe(403);
      expect(await t.dataSource.getRepository(Author).count({ where: { name: 'Zed' } })).toBe(0);
    });

    it('does not serve a query over GET as a mutation (405 for a mutation)', async () => {
      const request = (await import('supertest')).default;
      const response = await request(t.server)
        .get('/graphql')
        .query({ query: 'mutation { deleteBook(id: "1") }' })
        .set('accept', 'application/graphql-response+json')
        .set('x-role', 'editor');
      expect(response.status).toBe(405);
      expect(await t.dataSource.getRepository(Book).count({ where: { id: 1 } })).toBe(1);
    });
  });

  describe('uuid keys, enums and JSON columns', () => {
    it('creates and reads a row by its uuid, with an enum as a GraphQL enum', async () => {
      const created = await gql<{ createNote: { id: string; priority: string; data: unknown } }>(
        'mutation { createNote(input: { text: "hello", priority: high, data: { a: [1, 2] } }) { id priority data } }',
      );
      const note = dataOf(created).createNote;
      expect(note.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(note).toMatchObject({ priority: 'high', data: { a: [1, 2] } });
      const read = await gql<{ note: { text: string } }>(`{ note(id: "${note.id}") { text } }`);
      expect(dataOf(read).note.text).toBe('hello');
      const listed = await gql<{ notes: { items: { id: string }[] } }>(
        `{ notes(filter: { id: { eq: "${note.id}" } }) { items { id } } }`,
      );
      expect(dataOf(listed).notes.items).toEqual([{ id: note.id }]);
      const patched = await gql<{ patchNote: { priority: string } }>(
        `mutation { patchNote(id: "${note.id}", input: { priority: low }) { priority } }`,
      );
      expect(dataOf(patched).patchNote.priority).toBe('low');
      expect(dataOf(await gql(`mutation { deleteNote(id: "${note.id}") }`))).toEqual({ deleteNote: true });
    });

    it('refuses a value outside the enum in validation', async () => {
      const answer = await gql('mutation { createNote(input: { text: "x", priority: urgent }) { id } }');
      expect(answer.status).toBe(400);
    });

    it('answers a malformed uuid with a problem, not a crash', async () => {
      const answer = await gql('{ note(id: "not-a-uuid") { id } }');
      expect(answer.errors?.[0]?.extensions?.code).toMatch(/^SVC_/);
    });
  });

  describe('SQL statements', () => {
    const count = (query: string) => counter.during(async () => dataOf(await gql(query)));

    it('reads a page of 20 books with their author in at most 3 statements', async () => {
      expect(await count('{ books(limit: 20) { total items { title author { name } } } }')).toBeLessThanOrEqual(3);
    });

    it('sends as many statements for 30 books with author and tags as for 2 (no N+1)', async () => {
      const small = await count('{ books(limit: 2) { total items { title author { name } tags { name } } } }');
      const large = await count('{ books(limit: 30) { total items { title author { name } tags { name } } } }');
      expect(large).toBe(small);
    });

    it('loads no relation that @skip or @include leaves out, by literal or by variable', async () => {
      const counted = (query: string, variables: Record<string, unknown>) =>
        counter.during(async () => dataOf(await gql(query, variables)));
      const bare = await counted('{ books(limit: 20) { items { title } } }', {});
      const withAuthor = await counted('{ books(limit: 20) { items { title author { name } } } }', {});
      expect(withAuthor).toBeGreaterThan(bare);
      const switched = `query ($on: Boolean!) {
        books(limit: 20) { items { title author @include(if: $on) { name } ...Tagged @skip(if: true) } }
      }
      fragment Tagged on Book { tags { name } }`;
      expect(await counted(switched, { on: false })).toBe(bare);
      expect(await counted(switched, { on: true })).toBe(withAuthor);
      const inline = 'query ($off: Boolean!) { book(id: "1") { title ... @skip(if: $off) { author { name } } } }';
      const one = await counted('{ book(id: "1") { title } }', {});
      expect(await counted(inline, { off: true })).toBe(one);
      expect(await counted(inline, { off: false })).toBeGreaterThan(one);
      // The answer is graphql-js's own: a field left out is absent, one asked for is there.
      const answer = dataOf<{ books: { items: BookRow[] } }>(
        await gql('query ($on: Boolean!) { books(limit: 1) { items { title author @include(if: $on) { name } } } }', {
          on: false,
        }),
      );
      expect(answer.books.items[0]).toEqual({ title: 'Book 00' });
    });

    it('reads nested relations (book.author.books) with one statement per level', async () => {
      expect(await count('{ books(limit: 20) { items { author { books { title } } } } }')).toBeLessThanOrEqual(4);
    });
  });
});
