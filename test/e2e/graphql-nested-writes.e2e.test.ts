/**
 * Nested writes over GraphQL on each database: the write inputs take each relation's nested forms as the description
 * gives them (`<Entity><Relation>NestedInput`), and a mutation's input is the REST body, so each nested row follows
 * its own entity's slot, policy and scope in the parent's transaction; an element with two forms is refused by path;
 * a refused row leaves nothing written; one tenant never reaches the other's rows.
 */
import {
  buildClientSchema,
  getIntrospectionQuery,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  printType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, errorOf, postGraphql } from './support/graphql-http';
import {
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  NESTED_ENTITIES,
  NwAuthor,
  NwBook,
  NwReview,
  NwTag,
  REVIEW_CONFIG,
  TAG_CONFIG,
} from './support/nested-fixtures';

interface Book {
  id: string;
  title: string;
  author: { name: string; tenant: string } | null;
  tags: { name: string; tenant: string }[];
  reviews: { rating: number; tenant: string }[];
}

const BOOK_FIELDS = 'id title author { name tenant } tags { name tenant } reviews { rating tenant }';

/** Authors write their books nested too, one level deep: the author's and the book's inputs refer to each other. */
const AUTHOR_WITH_BOOKS = {
  ...AUTHOR_CONFIG,
  relations: { books: { write: { nested: { create: true as const }, maxDepth: 1 } } },
};

describe.each(TEST_DATABASES)('Nested writes over GraphQL on $name', (db) => {
  let t: TestApp;
  let schema: GraphQLSchema;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_graphql_nested',
      entities: NESTED_ENTITIES,
      controllers: [
        svcController('books', NwBook, BOOK_CONFIG),
        svcController('authors', NwAuthor, AUTHOR_WITH_BOOKS),
        svcController('tags', NwTag, TAG_CONFIG),
        svcController('reviews', NwReview, REVIEW_CONFIG),
      ],
      svc: { graphql: true },
    });
    schema = buildClientSchema(
      dataOf(await postGraphql<IntrospectionQuery>(t.server, { query: getIntrospectionQuery() })),
    );
    ids['ann'] = (await t.dataSource.getRepository(NwAuthor).save({ tenant: 'a', name: 'Ann' })).id;
    ids['bob'] = (await t.dataSource.getRepository(NwAuthor).save({ tenant: 'b', name: 'Bob' })).id;
    ids['classic'] = (await t.dataSource.getRepository(NwTag).save({ tenant: 'a', name: 'classic' })).id;
    ids['theirs'] = (await t.dataSource.getRepository(NwTag).save({ tenant: 'b', name: 'theirs' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const as = <T = Record<string, unknown>>(tenant: string, query: string, variables?: Record<string, unknown>) =>
    postGraphql<T>(t.server, { query, variables, headers: { 'x-tenant': tenant } });
  const create = (tenant: string, input: Record<string, unknown>) =>
    as<{ createNwBook: Book }>(
      tenant,
      `mutation ($input: NwBookCreateInput!) { createNwBook(input: $input) { ${BOOK_FIELDS} } }`,
      { input },
    );
  const count = (entity: Function) => t.dataSource.getRepository(entity).count();
  const counts = async () => [await count(NwBook), await count(NwAuthor), await count(NwTag), await count(NwReview)];
  const input = (name: string) => schema.getType(name) as GraphQLInputObjectType;

  it('gives each nested relation an input of its forms, derived from the description', () => {
    const book = input('NwBookCreateInput').getFields();
    expect(String(book['author']!.type)).toBe('NwBookAuthorNestedInput');
    expect(String(book['tags']!.type)).toBe('[NwBookTagsNestedInput!]');
    expect(String(book['reviews']!.type)).toBe('[NwBookReviewsNestedInput!]');
    expect(Object.keys(input('NwBookAuthorNestedInput').getFields())).toEqual(['id', 'create', 'connect', 'update']);
    expect(Object.keys(input('NwBookTagsNestedInput').getFields())).toEqual(['create', 'connect', 'connectOrCreate']);
    // A review made under a book leaves its book to the write.
    const reviews = input('NwBookReviewsNestedInput').getFields();
    expect(String(reviews['create']!.type)).toBe('NwBookReviewsNestedCreateInput');
    expect(Object.keys(input('NwBookReviewsNestedCreateInput').getFields())).toEqual(['rating']);
    expect(String(input('NwBookTagsNestedConnectOrCreateInput').getFields()['where']!.type)).toBe(
      'NwBookTagsNestedMatchInput!',
    );
    // Matched by name, a connect-or-create's new tag requires nothing else.
    const ifMissing = input('NwBookTagsNestedCreateIfMissingInput').getFields();
    expect(Object.values(ifMissing).some((field) => field.type instanceof GraphQLNonNull)).toBe(false);
    expect(String(input('NwBookAuthorNestedUpdateInput').getFields()['data']!.type)).toBe('NwAuthorPatchInput!');
    expect(input('NwBookPatchInput').getFields()['tags']!.type).toBeInstanceOf(GraphQLList);
    expect(printType(input('NwBookTagsNestedInput'))).toContain(
      'connectOrCreate: NwBookTagsNestedConnectOrCreateInput',
    );
  });

  it('makes the inputs of two entities that nest each other, each member without its way back', () => {
    expect(String(input('NwBookAuthorNestedInput').getFields()['create']!.type)).toBe('NwAuthorCreateInput');
    expect(String(input('NwAuthorCreateInput').getFields()['books']!.type)).toBe('[NwAuthorBooksNestedInput!]');
    const book = input('NwAuthorBooksNestedCreateInput').getFields();
    expect(Object.keys(book)).toEqual(['title', 'tags', 'reviews']);
  });

  it('creates an author with a book, and leaves the depth past maxDepth to the engine, by path', async () => {
    const { createNwAuthor: author } = dataOf(
      await as<{ createNwAuthor: { id: string; name: string } }>(
        'a',
        `mutation ($input: NwAuthorCreateInput!) { createNwAuthor(input: $input) { id name } }`,
        { input: { name: 'Olga', books: [{ create: { title: 'First' } }] } },
      ),
    );
    expect(author.name).toBe('Olga');
    const books = await t.dataSource.getRepository(NwBook).findBy({ authorId: Number(author.id) });
    expect(books.map((book) => [book.title, book.tenant])).toEqual([['First', 'a']]);
    const before = await counts();
    const deep = errorOf(
      await create('a', { title: 'Deep', author: { create: { name: 'Pia', books: [{ create: { title: 'X' } }] } } }),
      'SVC_VALIDATION_FAILED',
    );
    expect(deep.extensions?.problem?.errors).toEqual([
      expect.objectContaining({ field: 'author.create.books', code: 'too_deep' }),
    ]);
    expect(await counts()).toEqual(before);
  });

  it('creates a book with a new author, a connected, a new and a matched tag, and two reviews', async () => {
    const { createNwBook: book } = dataOf(
      await create('a', {
        title: 'Nested',
        author: { create: { name: 'Nina' } },
        tags: [
          { connect: { id: String(ids['classic']) } },
          { create: { name: 'gq-fresh' } },
          { connectOrCreate: { where: { name: 'classic' }, create: {} } },
          { connectOrCreate: { where: { name: 'gq-new' }, create: {} } },
        ],
        reviews: [{ create: { rating: 5 } }, { create: { rating: 3 } }],
      }),
    );
    expect(book.title).toBe('Nested');
    expect(book.author).toEqual({ name: 'Nina', tenant: 'a' });
    expect(book.tags.map((tag) => tag.name).sort()).toEqual(['classic', 'gq-fresh', 'gq-new']);
    expect(book.tags.every((tag) => tag.tenant === 'a')).toBe(true);
    expect(book.reviews.map((review) => review.rating).sort()).toEqual([3, 5]);
    expect(book.reviews.every((review) => review.tenant === 'a')).toBe(true);
  });

  it('keeps the plain reference of a to-one relation, and patches with nested forms', async () => {
    const { createNwBook: book } = dataOf(await create('a', { title: 'Plain', author: { id: String(ids['ann']) } }));
    expect(book.author?.name).toBe('Ann');
    const patched = dataOf(
      await as<{ patchNwBook: Book }>(
        'a',
        `mutation ($id: ID!, $input: NwBookPatchInput!) { patchNwBook(id: $id, input: $input) { ${BOOK_FIELDS} } }`,
        {
          id: book.id,
          input: {
            author: { update: { where: { id: String(ids['ann']) }, data: { name: 'Ann B.' } } },
            reviews: [{ create: { rating: 4 } }],
          },
        },
      ),
    ).patchNwBook;
    expect(patched.author?.name).toBe('Ann B.');
    expect(patched.reviews.map((review) => review.rating)).toEqual([4]);
  });

  it('refuses an element with two forms, naming its path, before anything is written', async () => {
    const before = await counts();
    const error = errorOf(
      await create('a', {
        title: 'Two',
        tags: [{ create: { name: 'gq-one' } }, { create: { name: 'gq-two' }, connect: { id: String(ids['classic']) } }],
      }),
      'SVC_VALIDATION_FAILED',
    );
    expect(error.extensions?.problem?.errors).toEqual([
      expect.objectContaining({ field: 'tags[1]', code: 'invalid_value' }),
    ]);
    const author = errorOf(
      await create('a', { title: 'Two', author: { id: String(ids['ann']), create: { name: 'X' } } }),
      'SVC_VALIDATION_FAILED',
    );
    expect(author.extensions?.problem?.errors).toEqual([expect.objectContaining({ field: 'author' })]);
    expect(await counts()).toEqual(before);
  });

  it('a nested row its policy refuses leaves nothing written, the error naming its path', async () => {
    const before = await counts();
    const refused = errorOf(
      await create('a', {
        title: 'Never',
        author: { create: { name: 'Ghost' } },
        tags: [{ create: { name: 'gq-ok' } }, { create: { name: 'forbidden' } }],
        reviews: [{ create: { rating: 1 } }],
      }),
      'SVC_FORBIDDEN',
    );
    expect(refused.message).toContain('tags[1]');
    // A value of the wrong type is GraphQL's to refuse, by its path in the variables.
    const invalid = await create('a', {
      title: 'Never',
      reviews: [{ create: { rating: 2 } }, { create: { rating: 'x' } }],
    });
    expect(invalid.errors?.[0]?.message).toContain('reviews[1].create.rating');
    expect(await counts()).toEqual(before);
  });

  it('never connects or reveals another tenant’s rows', async () => {
    const before = await counts();
    const theirs = errorOf(
      await create('a', { title: 'Cross', author: { connect: { id: String(ids['bob']) } } }),
      'SVC_UNRESOLVED_RELATION',
    );
    const missing = errorOf(
      await create('a', { title: 'Cross', author: { connect: { id: '987654' } } }),
      'SVC_UNRESOLVED_RELATION',
    );
    expect(theirs.message.replace(String(ids['bob']), '<id>')).toBe(missing.message.replace('987654', '<id>'));
    expect(JSON.stringify(theirs)).not.toContain('Bob');
    errorOf(
      await create('a', { title: 'Cross', tags: [{ connect: { id: String(ids['theirs']) } }] }),
      'SVC_UNRESOLVED_RELATION',
    );
    const taken = errorOf(
      await create('a', { title: 'Cross', tags: [{ connectOrCreate: { where: { name: 'theirs' }, create: {} } }] }),
      'SVC_CONFLICT',
    );
    expect(JSON.stringify(taken)).not.toContain(String(ids['theirs']));
    expect(await counts()).toEqual(before);
    // Tenant b's author, connected by b, is b's to use.
    const { createNwBook: own } = dataOf(
      await create('b', { title: 'Own', author: { connect: { id: String(ids['bob']) } } }),
    );
    expect(own.author).toEqual({ name: 'Bob', tenant: 'b' });
  });
});
