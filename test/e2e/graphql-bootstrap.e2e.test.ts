/**
 * The `graphql` switch of `SvcModule.forRoot`: off by default, mounted at `/graphql` or at its `path`, and refusing at
 * bootstrap an entity GraphQL cannot page (cursor or since) unless `exclude` leaves it out.
 */
import request from 'supertest';
import { getIntrospectionQuery } from 'graphql';
import { Author, BOOKSTORE_ENTITIES, Book, Tag } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, postGraphql } from './support/graphql-http';

const db = TEST_DATABASES[0]!;
const base = { db, suite: 'e2e_graphql_boot', entities: BOOKSTORE_ENTITIES };

describe('SvcModule.forRoot({ graphql })', () => {
  describe('when it is off', () => {
    it('mounts nothing at /graphql', async () => {
      const t = await createTestApp({ ...base, controllers: [svcController('tags', Tag)] });
      try {
        await request(t.server).post('/graphql').send({ query: '{ tags { total } }' }).expect(404);
      } finally {
        await t.close();
      }
    });
  });

  describe('with a path', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        ...base,
        controllers: [svcController('tags', Tag)],
        svc: { graphql: { path: 'api/gql' } },
      });
    });

    afterAll(async () => {
      await t?.close();
    });

    it('serves POST there', async () => {
      const answer = await postGraphql<{ tags: { total: number } }>(t.server, {
        query: '{ tags { total } }',
        path: '/api/gql',
      });
      expect(answer.contentType).toMatch(/^application\/graphql-response\+json/);
      expect(dataOf(answer).tags.total).toBe(0);
    });

    it('serves a query over GET', async () => {
      const response = await request(t.server)
        .get('/api/gql')
        .query({ query: '{ tags { total } }' })
        .set('accept', 'application/json')
        .expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.text)).toEqual({ data: { tags: { total: 0 } } });
    });

    it('refuses an operation with more than 20 root fields before running any', async () => {
      const fields = Array.from({ length: 21 }, (_, i) => `t${i}: tags { total }`).join(' ');
      const answer = await postGraphql(t.server, { query: `{ ${fields} }`, path: '/api/gql' });
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0]).toMatchObject({ extensions: { code: 'SVC_QUERY_INVALID' } });
      expect(answer.errors?.[0]?.message).toMatch(/21 root fields; the limit is 20/);
    });

    it('refuses 2,000 aliases of an introspection fragment before running it, quickly, and keeps serving', async () => {
      const fragment = 'fragment T on __Type { kind name fields { name type { name ofType { name } } } }';
      const aliases = Array.from({ length: 2000 }, (_, i) => `s${i}: __schema { types { ...T } }`).join(' ');
      const started = Date.now();
      const answer = await postGraphql(t.server, { query: `{ ${aliases} } ${fragment}`, path: '/api/gql' });
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0]).toMatchObject({ extensions: { code: 'SVC_QUERY_INVALID' } });
      expect(answer.errors?.[0]?.message).toMatch(/more than 1000 fields .*the limit is 1000 \(maxFields\)/);
      expect(JSON.stringify(answer.errors).length).toBeLessThan(2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(dataOf(await postGraphql(t.server, { query: '{ tags { total } }', path: '/api/gql' }))).toEqual({
        tags: { total: 0 },
      });
    });

    it('counts a fragment each time it is spread, without walking it each time', async () => {
      // Ten levels of a fragment spread twice expand to 2^10 fields.
      const levels = Array.from(
        { length: 10 },
        (_, i) =>
          `fragment F${i} on __Type { ${i === 0 ? 'name' : `a: ofType { ...F${i - 1} } b: ofType { ...F${i - 1} }`} }`,
      ).join(' ');
      const answer = await postGraphql(t.server, {
        query: `{ __type(name: "Tag") { ...F9 } } ${levels}`,
        path: '/api/gql',
      });
      expect(answer.errors?.[0]?.message).toMatch(/the limit is 1000 \(maxFields\)/);
    });

    it("answers GraphiQL's own introspection query", async () => {
      const answer = await postGraphql(t.server, { query: getIntrospectionQuery(), path: '/api/gql' });
      expect(answer.status).toBe(200);
      expect(answer.errors).toBeUndefined();
    });

    it('answers a request without a query as GraphQL-over-HTTP says (400)', async () => {
      await request(t.server)
        .post('/api/gql')
        .set('content-type', 'application/json')
        .set('accept', 'application/graphql-response+json')
        .send('{}')
        .expect(400);
    });
  });

  describe('at bootstrap', () => {
    it('refuses an entity paged by cursor, naming it', async () => {
      const error = await bootstrapFailure({
        ...base,
        controllers: [
          svcController('authors', Author, { pagination: { strategy: 'cursor' }, sort: { default: ['id'] } }),
          svcController('books', Book),
        ],
        svc: { graphql: true },
      });
      expect(error.code).toBe('SVC_CONFIG_INVALID');
      expect(error.message).toMatch(/^Author: pagination\.strategy: is 'cursor'.*exclude: \['Author'\]/);
    });

    it('boots with the entity left out by exclude, which stays on REST', async () => {
      const t = await createTestApp({
        ...base,
        controllers: [
          svcController('authors', Author, { pagination: { strategy: 'cursor' }, sort: { default: ['id'] } }),
          svcController('books', Book),
        ],
        svc: { graphql: { exclude: ['Author'] } },
      });
      try {
        const answer = await postGraphql(t.server, { query: '{ authors { total } }' });
        expect(answer.status).toBe(400);
        await request(t.server).get('/authors').expect(200);
        expect(dataOf(await postGraphql(t.server, { query: '{ books { total } }' }))).toEqual({ books: { total: 0 } });
      } finally {
        await t.close();
      }
    });
  });
});
