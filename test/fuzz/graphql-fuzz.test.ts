/**
 * Fuzzes the GraphQL endpoint: thousands of seeded random requests drawn from the served schema (fields real and
 * misspelled, aliases by the hundred, fragments spread many times, cyclic or undefined, introspection whole and
 * nested, variables of every type and none, documents cut short). Every answer must be a GraphQL answer at 200 or
 * 400 with no Svc fault in it, within its bounds: an answer holds no more values than the operation's estimated cost
 * (when every relation holds at most listSize rows, as the seed makes them), and none is larger than a few megabytes
 * or slower than a few seconds. No table may change, and no prototype may gain a key.
 *
 * FUZZ_SEED=<n or text> replays another stream (the seed is written to test-output/report.txt); FUZZ_CASES=<factor>
 * scales the case counts.
 */
import type { AddressInfo } from 'node:net';
import { operationCost, buildSvcSchema, plannedExecute } from '@svc/graphql';
import { SvcRegistry } from '@svc/nestjs';
import {
  execute,
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { Author, Book, Review, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';
import { formatCounts, prototypeSnapshot, runPool, tableChecksums, type TableChecksums } from './fuzz-support';
import { Prng, seedFrom } from './query-generator';
import { GraphqlGenerator, type GraphqlCase } from './graphql-generator';
import { answerValues } from '../e2e/support/graphql-http';
import { report } from '../support/test-report';

const SEED = seedFrom(process.env['FUZZ_SEED'], 20261127);
const SCALE = Number(process.env['FUZZ_CASES'] ?? '1') > 0 ? Number(process.env['FUZZ_CASES'] ?? '1') : 1;
const CASES: Record<TestDatabaseName, number> = { sqlite: 3_000, postgres: 1_000, mysql: 1_000 };
const CONCURRENCY = 8;
/** Generated documents whose valid queries run both from their plan and by graphql-js, compared. */
const PLANNED_CASES = Math.round(600 * SCALE);
/** The largest answer any case may get, and the longest it may take (on a loaded two-core machine). */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
const MAX_MILLISECONDS = 5_000;
/** Codes that are Svc's or the database's fault, never the request's. */
const FAULTS = new Set(['SVC_INTERNAL', 'SVC_PERSISTENCE_ERROR', 'SVC_CONFIG_INVALID']);

interface Failure {
  readonly fuzzCase: GraphqlCase;
  readonly reason: string;
  readonly body: string;
}

describe.each(TEST_DATABASES)('GraphQL fuzz on $name', (db) => {
  let t: TestApp;
  let url: string;
  let schema: GraphQLSchema;
  let before: TableChecksums;
  let prototypesBefore: string[];

  beforeAll(async () => {
    prototypesBefore = prototypeSnapshot();
    t = await createTestApp({
      db,
      suite: 'fuzz_graphql',
      entities: [Author, Tag, Book, Review],
      controllers: [
        svcController('books', Book, {
          filter: { fields: ['title', 'pages', 'rating', 'published', 'author.country', 'tags.name'] },
          sort: { fields: ['title', 'pages', 'id'] },
          search: { fields: ['title'] },
          include: { fields: ['author', 'tags', 'reviews'] },
        }),
        svcController('authors', Author, { include: { fields: ['books'] } }),
        svcController('tags', Tag),
        svcController('reviews', Review, { include: { fields: ['book'] } }),
      ],
      svc: { graphql: true },
    });
    await seed(t);
    await t.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/graphql`;
    // The schema the app serves, built again from the same services (with the page sizes its cost reads).
    schema = buildSvcSchema(t.app.get(SvcRegistry).instance);
    before = await tableChecksums(t.dataSource);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it(`answers every random request within the GraphQL rules and its bounds (${Math.round(CASES[db.name] * SCALE)} cases)`, async () => {
    const total = Math.round(CASES[db.name] * SCALE);
    const generator = new GraphqlGenerator(new Prng(SEED), schema);
    const cases = Array.from({ length: total }, () => generator.next());
    const counts = new Map<string, number>();
    const failures: Failure[] = [];
    let largest = 0;
    let slowest = 0;
    const started = Date.now();
    await runPool(cases, CONCURRENCY, async (fuzzCase) => {
      const sent = performance.now();
      let status = 'error';
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
          body: JSON.stringify({ query: fuzzCase.query, variables: fuzzCase.variables }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        const ms = performance.now() - sent;
        status = `${fuzzCase.kind} ${response.status}`;
        largest = Math.max(largest, text.length);
        slowest = Math.max(slowest, ms);
        const reason = violation(response.status, response.headers.get('content-type'), text, ms, fuzzCase, schema);
        if (reason) failures.push({ fuzzCase, reason, body: text.slice(0, 400) });
      } catch (error) {
        failures.push({ fuzzCase, reason: `request failed: ${String(error)}`, body: '' });
      }
      counts.set(status, (counts.get(status) ?? 0) + 1);
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    report(
      `graphql fuzz ${db.name}: ${cases.length} cases, seed ${SEED}, ${seconds} s, largest answer ` +
        `${largest} bytes, slowest ${Math.round(slowest)} ms: ${formatCounts(counts)}\n`,
    );
    if (failures.length > 0) {
      const shown = failures
        .slice(0, 15)
        .map(
          (failure) =>
            `  [${failure.fuzzCase.kind}] ${failure.fuzzCase.query.slice(0, 300)} ${JSON.stringify(failure.fuzzCase.variables ?? {}).slice(0, 100)}\n    -> ${failure.reason} ${failure.body}`,
        )
        .join('\n');
      throw new Error(
        `${failures.length} of ${cases.length} GraphQL fuzz cases broke the rules on ${db.name} (FUZZ_SEED=${SEED}):\n${shown}`,
      );
    }
  }, 600_000);

  it(`answers every valid query from its plan as graphql-js executes it (${PLANNED_CASES} cases)`, async () => {
    const generator = new GraphqlGenerator(new Prng(SEED + 1), schema);
    const compared = new Map<string, number>();
    const differences: string[] = [];
    for (let index = 0; index < PLANNED_CASES; index++) {
      const fuzzCase = generator.next();
      const document = parsed(fuzzCase.query);
      // A valid query only: a mutation would be written twice, and graphql-http never executes an invalid document.
      if (!document || getOperationAST(document)?.operation !== 'query' || validate(schema, document).length > 0)
        continue;
      const args = { schema, document, variableValues: fuzzCase.variables, contextValue: {} };
      const [planned, reference] = [comparable(await plannedExecute(args)), comparable(await execute(args))];
      compared.set(fuzzCase.kind, (compared.get(fuzzCase.kind) ?? 0) + 1);
      if (!sameAnswer(planned, reference))
        differences.push(
          `${fuzzCase.query.slice(0, 300)}\n    planned ${JSON.stringify(planned).slice(0, 300)}\n    graphql-js ${JSON.stringify(reference).slice(0, 300)}`,
        );
    }
    report(`graphql planned execution ${db.name}: compared ${formatCounts(compared)}\n`);
    expect(differences.slice(0, 5)).toEqual([]);
    expect([...compared.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(PLANNED_CASES / 10);
  }, 600_000);

  it('leaves every table as it was: row counts and a hash of all rows', async () => {
    expect(await tableChecksums(t.dataSource)).toEqual(before);
  });

  it('pollutes no prototype', () => {
    expect(Object.keys(Object.prototype)).toHaveLength(0);
    expect(prototypeSnapshot()).toEqual(prototypesBefore);
  });
});

/** Why an answer breaks the rules, or undefined when it keeps them. */
function violation(
  status: number,
  type: string | null,
  text: string,
  ms: number,
  fuzzCase: GraphqlCase,
  schema: GraphQLSchema,
): string | undefined {
  if (status !== 200 && status !== 400) return `status ${status}`;
  if (!type?.startsWith('application/graphql-response+json') && !type?.startsWith('application/json')) {
    return `content-type ${type}`;
  }
  if (text.length > MAX_ANSWER_BYTES) return `an answer of ${text.length} bytes`;
  if (ms > MAX_MILLISECONDS) return `answered in ${Math.round(ms)} ms`;
  let body: { data?: unknown; errors?: { message?: unknown; extensions?: { code?: unknown } }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return 'a body that is not JSON';
  }
  if (body === null || typeof body !== 'object') return 'a body that is not an object';
  if (body.data === undefined && !Array.isArray(body.errors)) return 'neither data nor errors';
  for (const error of body.errors ?? []) {
    if (typeof error.message !== 'string' || error.message === '') return 'an error without a message';
    const code = error.extensions?.code;
    if (typeof code === 'string' && FAULTS.has(code)) return `a fault: ${code}`;
  }
  if (status === 400 && body.data !== undefined) return 'data on a 400';
  if (body.data !== undefined && body.data !== null) {
    const document = parsed(fuzzCase.query);
    const values = answerValues(body.data);
    const cost = document ? operationCost(schema, document) : 0;
    if (values > cost) return `${values} values against an estimated cost of ${cost}`;
  }
  return undefined;
}

/** An execution result as JSON: its data, and its errors in a fixed order. */
interface Comparable {
  readonly data: string;
  readonly errors: readonly string[];
}

function comparable(result: ExecutionResult): Comparable {
  return { data: JSON.stringify(result.data), errors: (result.errors ?? []).map((e) => JSON.stringify(e)).sort() };
}

/**
 * The same data and the same errors, in any order: graphql-js lists errors as the resolvers fail, in the order their
 * reads finish. Where a non-null root field failed (no data), graphql-js answers at once, with the failures that
 * settled by then: the two runs must each report at least one, each a failure the other run had or a root field's.
 */
function sameAnswer(planned: Comparable, reference: Comparable): boolean {
  if (planned.data !== reference.data) return false;
  if (planned.data !== 'null') return JSON.stringify(planned.errors) === JSON.stringify(reference.errors);
  const atRoot = (error: string) => (JSON.parse(error) as { path?: unknown[] }).path?.length === 1;
  return (
    planned.errors.length > 0 &&
    reference.errors.length > 0 &&
    planned.errors.every((error) => reference.errors.includes(error) || atRoot(error)) &&
    reference.errors.every((error) => planned.errors.includes(error) || atRoot(error))
  );
}

function parsed(query: string): DocumentNode | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}

/**
 * 30 authors with at most 4 books each, 100 books with at most 3 tags and 3 reviews each, 10 tags: every relation
 * within the 10 rows the cost counts for it.
 */
async function seed(t: TestApp): Promise<void> {
  const rng = new Prng(271127);
  const data = t.dataSource;
  const authors = await data
    .getRepository(Author)
    .save(Array.from({ length: 30 }, (_, i) => ({ name: `Author ${i}`, country: rng.pick(['UK', 'US', null]) })));
  const tags = await data
    .getRepository(Tag)
    .save(['red', 'blue', 'green', 'sci-fi', "it's", '50%', 'a_b', 'back\\', 'Night', 'sea'].map((name) => ({ name })));
  const books = await data.getRepository(Book).save(
    Array.from({ length: 100 }, (_, i) => ({
      title: `Book ${i} ${rng.pick(['Night', 'Sea', 'Red', "O'Brien"])}`,
      pages: rng.int(0, 420),
      rating: i % 7 === 0 ? null : rng.int(0, 50) / 10,
      published: rng.chance(0.5),
      isbn: i % 3 === 0 ? null : `ISBN-${i}`,
      author: i % 10 === 9 ? null : authors[i % 30]!,
      tags: Array.from(new Set(Array.from({ length: rng.int(0, 3) }, () => rng.pick(tags)))),
    })),
  );
  await data
    .getRepository(Review)
    .save(
      books.flatMap((book, i) =>
        Array.from({ length: i % 4 }, (_, j) => ({ rating: rng.int(1, 5), body: `review ${j}`, book })),
      ),
    );
}
