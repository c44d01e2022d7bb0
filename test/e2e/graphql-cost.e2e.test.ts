/**
 * What one GraphQL operation may make the server produce: aliases, fields and the estimated number of values of its
 * answer (each field once per row of every list it is in) are bounded before anything runs. The amplification specs
 * send the requests that answered tens of megabytes before these bounds, and measure the answer and the time, with an
 * ordinary request beside them.
 */
import request from 'supertest';
import { ConfigurationException } from '@svc/core';
import { SvcRegistry } from '@svc/nestjs';
import { buildSvcSchema, operationCost } from '@svc/graphql';
import { getIntrospectionQuery, Kind, parse, print } from 'graphql';
import { Author, BOOKSTORE_ENTITIES, Book, Note, Tag } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { answerValues, dataOf, postGraphql, type GraphqlAnswer } from './support/graphql-http';

/** A JSON value of about 19 kB, as a tenant may store in its own rows. */
const LARGE_JSON = { blob: 'x'.repeat(19 * 1024) };

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe.each(TEST_DATABASES)('GraphQL operation cost on $name', (db) => {
  let t: TestApp;
  let restNotesBytes: number;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_graphql_cost',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('notes', Note),
        svcController('books', Book, { include: { fields: ['author', 'tags'] } }),
        svcController('authors', Author, { include: { fields: ['books'] } }),
        svcController('tags', Tag),
      ],
      svc: { graphql: true },
    });
    await t.dataSource
      .getRepository(Note)
      .save(Array.from({ length: 10 }, (_, i) => ({ text: `note ${i}`, data: LARGE_JSON })));
    const tags = await t.dataSource.getRepository(Tag).save([{ name: 'red' }, { name: 'blue' }]);
    const author = await t.dataSource.getRepository(Author).save({ name: 'Cost author' });
    await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 5 }, (_, i) => ({ title: `Cost ${i}`, author, tags })));
    const rest = await fetchNotesOverRest(t);
    restNotesBytes = rest.length;
  });

  afterAll(async () => {
    await t?.close();
  });

  const post = (query: string, variables?: Record<string, unknown>) => postGraphql(t.server, { query, variables });

  it('refuses 300 aliases of a large JSON column before reading a row, naming maxAliases', async () => {
    const aliases = Array.from({ length: 300 }, (_, i) => `d${i}: data`).join(' ');
    const { value: answer, ms } = await timed(() => post(`{ notes { items { ${aliases} } } }`));
    expect(answer.status).toBe(400);
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.map((error) => error.message).join(' ')).toMatch(/the limit is 20 \(maxAliases\)/);
    expect(answer.errors?.[0]).toMatchObject({ extensions: { code: 'SVC_QUERY_INVALID' } });
    expect(JSON.stringify(answer).length).toBeLessThan(5_000);
    expect(ms).toBeLessThan(1_000);
  });

  it('bounds the largest answer the aliases allow to 21 times what REST answers for the same rows', async () => {
    const aliases = Array.from({ length: 20 }, (_, i) => `d${i}: data`).join(' ');
    const answer = await post(`{ notes { items { id data ${aliases} } } }`);
    expect(answer.status).toBe(200);
    const bytes = JSON.stringify(answer.data).length;
    // Ten rows of about 19 kB, each sent 21 times: about 4 MB, against 57 MB before the bound.
    expect(bytes).toBeLessThan(21 * restNotesBytes + 10_000);
    expect(bytes).toBeLessThan(5 * 1024 * 1024);
  });

  it('refuses twenty full introspections in one request on maxCost, and keeps serving another request meanwhile', async () => {
    // GraphiQL's own FullType fragment (and those it spreads), twenty times over every type.
    const fragments = parse(getIntrospectionQuery({ descriptions: true }))
      .definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((definition) => print(definition))
      .join('\n');
    const aliases = Array.from({ length: 20 }, (_, i) => `s${i}: __schema { types { ...FullType } }`).join(' ');
    const [refused, ordinary] = await Promise.all([
      timed(() => post(`{ ${aliases} } ${fragments}`)),
      timed(() => post('{ tags { total } }')),
    ]);
    expect(refused.value.status).toBe(400);
    expect(refused.value.errors?.map((error) => error.message).join(' ')).toMatch(/\(maxCost\)/);
    expect(refused.ms).toBeLessThan(1_000);
    expect(dataOf(ordinary.value)).toEqual({ tags: { total: 2 } });
    expect(ordinary.ms).toBeLessThan(1_000);
  });

  it("answers GraphiQL's full introspection query, descriptions and all, and a page of 100 with its relations", async () => {
    const introspection = await post(
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true }),
    );
    expect(introspection.status).toBe(200);
    expect(introspection.errors).toBeUndefined();
    const page = await post(
      '{ books(limit: 100) { total items { id title pages rating published author { id name country } tags { id name } } } }',
    );
    expect(dataOf(page as GraphqlAnswer<{ books: { total: number } }>).books.total).toBe(5);
  });

  it('counts no more values than the answer holds (the estimate bounds the real answer)', async () => {
    const query =
      '{ books(limit: 3) { total items { id title author { name books { id } } tags { name } } } ' +
      'notes { items { id data } } __schema { types { name fields { name } } } }';
    const answer = await post(query);
    // A JSON column's value is one value of the answer, however it nests.
    const values = answerValues(dataOf(answer), (value) => 'blob' in value);
    // The schema the app serves, built again from the same services.
    const schema = buildSvcSchema(t.app.get(SvcRegistry).instance);
    expect(values).toBeGreaterThan(100);
    expect(values).toBeLessThanOrEqual(operationCost(schema, parse(query)));
  });
});

async function fetchNotesOverRest(t: TestApp): Promise<string> {
  return (await request(t.server).get('/notes').expect(200)).text;
}

describe('GraphQL operation cost settings', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db: TEST_DATABASES[0]!,
      suite: 'e2e_graphql_cost_settings',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { include: { fields: ['tags'] } }),
        svcController('authors', Author, { include: { fields: ['books'] } }),
        svcController('tags', Tag),
      ],
      svc: { graphql: { maxCost: 1000, listSize: 5, maxAliases: 2 } },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  const post = (query: string, variables?: Record<string, unknown>) => postGraphql(t.server, { query, variables });
  const refusedOn = (answer: GraphqlAnswer<unknown>) =>
    answer.status === 400 ? answer.errors?.map((error) => /\((max\w+)\)/.exec(error.message)?.[1]) : [];
  /** 8 columns and a to-many relation of 2: 2 + limit × (8 + 1 + 5 × 2). */
  const page = (limit: string) =>
    `books(limit: ${limit}) { items { id title pages rating published isbn authorId deletedAt tags { id name } } }`;

  it('counts a page as its literal limit: 50 rows (952) pass, 100 rows (1,902) are refused', async () => {
    expect(refusedOn(await post(`{ ${page('50')} }`))).toEqual([]);
    expect(refusedOn(await post(`{ ${page('100')} }`))).toEqual(['maxCost']);
  });

  it('counts a limit given as a variable as the largest page, whatever its default or value', async () => {
    // A default is no bound: a request that sends the variable replaces it.
    expect(refusedOn(await post(`query ($n: Int = 50) { ${page('$n')} }`, { n: 100 }))).toEqual(['maxCost']);
    expect(refusedOn(await post(`query ($n: Int) { ${page('$n')} }`, { n: 50 }))).toEqual(['maxCost']);
  });

  it('counts a page without a limit as the default page (20) and a to-many relation as listSize rows', async () => {
    // 2 + 20 × (1 + 5 × (2 + 1 + 5 × 2)) = 1,322 over 1,000; the same with 10 authors is 662.
    const nested = (limit: string) => `authors${limit} { items { books { id title tags { id name } } } }`;
    expect(refusedOn(await post(`{ ${nested('')} }`))).toEqual(['maxCost']);
    expect(refusedOn(await post(`{ ${nested('(limit: 10)')} }`))).toEqual([]);
  });

  it('counts every alias, in fragments too, against maxAliases', async () => {
    expect(refusedOn(await post('{ a: tags { total } b: tags { total } }'))).toEqual([]);
    expect(
      refusedOn(await post('{ a: tags { total } ...F } fragment F on Query { b: tags { total } c: tags { total } }')),
    ).toEqual(['maxAliases']);
  });

  it.each([
    ['maxCost', 0],
    ['maxAliases', -1],
    ['listSize', 2.5],
    ['maxFields', '1000'],
  ])('refuses %s: %j at bootstrap, naming it', async (name, value) => {
    const failure = await bootstrapFailure({
      db: TEST_DATABASES[0]!,
      suite: 'e2e_graphql_cost_bad_settings',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('tags', Tag)],
      svc: { graphql: { [name]: value } as never },
    });
    expect(failure).toBeInstanceOf(ConfigurationException);
    expect((failure as ConfigurationException).message).toContain(`graphql.${name}`);
  });
});
