/**
 * Client input nested past any depth Svc takes (GraphQL documents, variables and arguments; REST filters, bodies and
 * JSON Patch documents) is refused as a request error (400, `too_deep`) by a count made before anything recursive
 * reads it, so the answer is the same on a cold server and on one whose code V8 has optimized: a stack overflow is
 * never what stops it.
 */
import { buildSchema, getIntrospectionQuery } from 'graphql';
import { createSvcGraphqlHandler } from '@svc/graphql';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book, Note, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, errorOf, postGraphql, type GraphqlAnswer } from './support/graphql-http';

const sqlite = TEST_DATABASES.find((db) => db.name === 'sqlite')!;

/** `{ __type(name: "Book") { fields { type { ofType { ofType ... } } } } }`, `levels` ofType deep. */
function deepIntrospection(levels: number): string {
  return `{ __type(name: "Book") { fields { type { ${'ofType { '.repeat(levels)}name${' }'.repeat(levels)} } } } }`;
}

/** A chain of `count` fragments, each spreading the next, under one field. */
function fragmentChain(count: number): string {
  const fragments = Array.from(
    { length: count },
    (_, i) => `fragment f${i} on Tag{${i + 1 < count ? `...f${i + 1}` : 'name'}}`,
  );
  return `{ tags { items { ...f0 } } } ${fragments.join(' ')}`;
}

function expectTooDeep(answer: GraphqlAnswer<unknown>, param: string): void {
  expect(answer.status).toBe(400);
  expect(errorOf(answer, 'SVC_QUERY_INVALID').extensions?.problem?.errors).toEqual([
    expect.objectContaining({ param, code: 'too_deep' }),
  ]);
}

describe('Client input nested past the limit', () => {
  let t: TestApp;
  const gql = (query: string, variables?: Record<string, unknown>) => postGraphql(t.server, { query, variables });

  beforeAll(async () => {
    t = await createTestApp({
      db: sqlite,
      suite: 'e2e_graphql_deep',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          filter: { fields: { pages: ['eq', 'gte'] }, limits: { maxDepth: 8 } },
          relations: { tags: { write: { strategy: 'jsonPatch' } } },
        }),
        svcController('tags', Tag),
        svcController('notes', Note),
      ],
      svc: { graphql: {} },
    });
    await t.dataSource.getRepository(Tag).save([{ name: 'red' }]);
  });

  afterAll(async () => {
    await t?.close();
  });

  // Several hundred of each, so V8 has optimized the parser and the validation passes before the last ones run.
  const WARM = 400;

  it('refuses a selection 3,000 levels deep the same way cold and warm', async () => {
    const deep = deepIntrospection(3000);
    for (let i = 0; i < WARM; i++) {
      dataOf(await gql(deepIntrospection(5)));
      if (i % 20 === 0) expectTooDeep(await gql(deep), 'query');
    }
    for (let i = 0; i < 20; i++) expectTooDeep(await gql(deep), 'query');
  });

  it('refuses a fragment chain 2,500 spreads long, cold and warm', async () => {
    const chain = fragmentChain(2500);
    for (let i = 0; i < 30; i++) expectTooDeep(await gql(chain), 'query');
    expect(dataOf(await gql(fragmentChain(10)))).toEqual({ tags: { items: [{ name: 'red' }] } });
  });

  it('refuses list and object literals nested past the limit in an argument', async () => {
    const list = `{ books(sort: ${'['.repeat(3000)}"id"${']'.repeat(3000)}) { total } }`;
    let literal = '{ pages: { eq: 1 } }';
    for (let i = 0; i < 3000; i++) literal = `{ not: ${literal} }`;
    for (let i = 0; i < 40; i++) {
      expectTooDeep(await gql(list), 'query');
      expectTooDeep(await gql(`{ books(filter: ${literal}) { total } }`), 'query');
    }
  });

  it('refuses variables nested past the limit, cold and warm', async () => {
    let filter: Record<string, unknown> = { pages: { eq: 1 } };
    for (let i = 0; i < 3000; i++) filter = { not: filter };
    const query = 'query ($f: BookFilter) { books(filter: $f) { total } }';
    for (let i = 0; i < 60; i++) expectTooDeep(await gql(query, { f: filter }), 'variables');
    // Within that bound, the filter's own nesting limit answers, warm too.
    filter = { pages: { gte: 1 } };
    for (let i = 0; i < 1000; i++) filter = { not: filter };
    for (let i = 0; i < 100; i++) {
      const answer = await gql(query, { f: filter });
      expect(answer.status).toBe(400);
      expect(errorOf(answer, 'SVC_QUERY_INVALID').extensions?.problem?.errors?.[0]).toMatchObject({ code: 'too_deep' });
    }
  });

  it('names the limit, and answers a document at the limit', async () => {
    const answer = await gql(deepIntrospection(200));
    expectTooDeep(answer, 'query');
    expect(answer.errors?.[0]?.message).toMatch(/100/);
    dataOf(await gql(deepIntrospection(90)));
    dataOf(await gql(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true })));
  });

  it('refuses a maxDepth out of range when the handler is made', () => {
    for (const maxDepth of [0, 1001, 2.5])
      expect(() => createSvcGraphqlHandler({ schema: buildSchema('type Query { a: Int }'), maxDepth })).toThrow(
        /graphql\.maxDepth/,
      );
  });

  describe('over REST, warm', () => {
    const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

    it('refuses a JSON filter nested 500 groups deep with its nesting limit, every time', async () => {
      const filter = `${'{"not":'.repeat(500)}{"pages":{"eq":1}}${'}'.repeat(500)}`;
      for (let i = 0; i < 200; i++) {
        const res = await request(t.server).get('/books').query({ filter });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          code: 'SVC_QUERY_INVALID',
          errors: [expect.objectContaining({ code: 'too_deep' })],
        });
      }
    });

    it('refuses bodies and JSON Patch values nested 5,000 deep, every time, writing nothing', async () => {
      const book = await t.dataSource.getRepository(Book).save({ title: 'Patched', isbn: 'deep-1' });
      const deep = nestedJson(5000);
      for (let i = 0; i < 200; i++) {
        const created = await request(t.server)
          .post('/notes')
          .set('Content-Type', 'application/json')
          .send(`{"text":"deep","data":${deep}}`);
        expect(created.status).toBe(400);
        expect(created.body.errors?.[0]).toMatchObject({ field: 'data', code: 'too_deep' });
        const patched = await request(t.server)
          .patch(`/books/${book.id}`)
          .set('Content-Type', 'application/json-patch+json')
          .send(`[{"op":"add","path":"/tags/-","value":${deep}}]`);
        expect(patched.status).toBe(400);
        expect(patched.body).toMatchObject({
          code: 'SVC_VALIDATION_FAILED',
          errors: [expect.objectContaining({ code: 'too_deep' })],
        });
      }
      expect(await t.dataSource.getRepository(Note).count()).toBe(0);
      expect(
        await t.dataSource.getRepository(Book).findOneOrFail({ where: { id: book.id }, relations: { tags: true } }),
      ).toMatchObject({ tags: [] });
    });

    it('refuses a JSON Patch path thousands of segments long, every time', async () => {
      const book = await t.dataSource.getRepository(Book).save({ title: 'Pathed', isbn: 'deep-2' });
      const path = `/tags${'/a'.repeat(5000)}`;
      for (let i = 0; i < 100; i++) {
        const res = await request(t.server)
          .patch(`/books/${book.id}`)
          .set('Content-Type', 'application/json-patch+json')
          .send(JSON.stringify([{ op: 'add', path, value: 1 }]));
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('SVC_VALIDATION_FAILED');
      }
    });
  });
});
