/**
 * Aggregate fuzz: seeded `GET /books/aggregate` queries mixing the aggregate's own parameters (valid and junk group
 * fields, functions, sort keys, limits) with the query fuzz's generated filters and hostile strings. Every answer is
 * below 500 and meets the problem contract; an accepted one has at most `limit` groups, and (ungrouped) the count
 * `findMany` gives for the same filter.
 */
import request from 'supertest';
import { Author, Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';
import { bodyOf, contractViolation, formatCounts, prototypeSnapshot } from './fuzz-support';
import { HOSTILE_STRINGS, Prng, QueryGenerator, seedFrom } from './query-generator';
import { report } from '../support/test-report';

const SEED = seedFrom(process.env['FUZZ_SEED'], 20261128);
const SCALE = Number(process.env['FUZZ_CASES'] ?? 1);
const CASES: Record<TestDatabaseName, number> = { sqlite: 800, postgres: 300, mysql: 300 };
const MAX_GROUPS = 7;

const GROUPS = ['published', 'authorId', 'author.country', 'author.name', 'rating', 'title', 'nope', '', 'author'];
const FIELDS = ['pages', 'rating', 'id', 'title', 'published', 'updatedAt', 'isbn', 'nope', '__proto__'];
const FUNCTIONS = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max', 'median'];

const VALID_GROUPS = ['published', 'authorId', 'author.country', 'rating'];
const VALID: readonly (readonly [string, string])[] = [
  ['sum', 'pages'],
  ['avg', 'pages'],
  ['min', 'pages'],
  ['max', 'pages'],
  ['avg', 'rating'],
  ['min', 'rating'],
  ['max', 'rating'],
  ['countDistinct', 'isbn'],
];

/** A query the allowlists take: real groups, functions and order keys, a plain filter, a page. */
function wellFormed(rng: Prng): URLSearchParams {
  const query = new URLSearchParams();
  const groups = VALID_GROUPS.filter(() => rng.chance(0.35));
  if (groups.length > 0) query.append('groupBy', groups.join(','));
  const measures = VALID.filter(() => rng.chance(0.3));
  const byFn = new Map<string, string[]>();
  for (const [fn, field] of measures) byFn.set(fn, [...(byFn.get(fn) ?? []), field]);
  for (const [fn, fields] of byFn) query.append(fn, fields.join(','));
  const keys = ['count', ...groups, ...measures.map(([fn, field]) => `${fn}.${field}`)];
  if (rng.chance(0.6))
    query.append(
      'sort',
      keys
        .filter(() => rng.chance(0.4))
        .map((key) => (rng.chance(0.5) ? `-${key}` : key))
        .join(',') || 'count',
    );
  if (rng.chance(0.5)) query.append(`filter[pages][${rng.pick(['gte', 'lt', 'eq'])}]`, String(rng.int(0, 800)));
  if (rng.chance(0.2)) query.append('filter[author.country][eq]', rng.pick(['UK', 'FR', HOSTILE_STRINGS[0]!]));
  if (rng.chance(0.4)) query.append('limit', String(rng.int(1, MAX_GROUPS + 3)));
  if (rng.chance(0.3)) query.append('offset', String(rng.int(0, 6)));
  return query;
}

/** Anything: junk group fields, functions and keys beside the query fuzz's generated filters and hostile strings. */
function junk(rng: Prng, queries: QueryGenerator, pickSome: (from: readonly string[]) => string[]): URLSearchParams {
  const query = new URLSearchParams();
  const generated = new URLSearchParams(queries.next().query);
  // The query fuzz's filter and search (and now and then its other list parameters, which an aggregate refuses).
  for (const [key, value] of generated) {
    if (key.startsWith('filter') || key === 'search[query]' || rng.chance(0.05)) query.append(key, value);
  }
  if (rng.chance(0.7)) query.append('groupBy', pickSome(GROUPS).join(','));
  for (let n = rng.int(0, 3); n > 0; n--) query.append(rng.pick(FUNCTIONS), pickSome(FIELDS).join(','));
  if (rng.chance(0.4)) {
    const keys = ['count', '-count', 'sum.pages', '-avg.rating', 'published', '-author.country', 'nope', 'max.pages'];
    query.append('sort', pickSome(keys).join(','));
  }
  if (rng.chance(0.3)) query.append('limit', String(rng.pick([0, 1, 3, MAX_GROUPS, 1_000, -1, 'x'])));
  if (rng.chance(0.3)) query.append('offset', String(rng.pick([0, 2, 50, -3, '1e3'])));
  return query;
}

describe.each(TEST_DATABASES)('aggregate fuzz on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'fuzz_aggregates',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          aggregate: {
            groupBy: ['published', 'authorId', 'author.country', 'rating'],
            fields: { pages: ['sum', 'avg', 'min', 'max'], rating: ['avg', 'min', 'max'], isbn: ['countDistinct'] },
            limits: { maxGroups: MAX_GROUPS },
          },
        }),
      ],
    });
    const [ann, bob] = await t.dataSource.getRepository(Author).save([
      { name: 'Ann', country: 'UK' },
      { name: 'Bob', country: null },
    ]);
    await t.dataSource.getRepository(Book).save(
      Array.from({ length: 60 }, (_, i) => ({
        title: `Book ${i}`,
        pages: i * 13,
        rating: i % 4 === 0 ? null : (i % 5) + 0.5,
        published: i % 3 === 0,
        isbn: i % 2 === 0 ? `fz-${i}` : null,
        authorId: i % 3 === 0 ? null : i % 3 === 1 ? ann!.id : bob!.id,
      })),
    );
  }, 60_000);
  afterAll(() => t?.close());

  it(`answers every aggregate below 500, within its limits (${CASES[db.name] * SCALE} cases)`, async () => {
    const rng = new Prng(SEED);
    const queries = new QueryGenerator(new Prng(SEED + 1), { maxLength: 2_000 });
    const prototypes = prototypeSnapshot();
    const counts = new Map<string, number>();
    const failures: string[] = [];
    const pickSome = (from: readonly string[]): string[] =>
      Array.from({ length: rng.int(1, 3) }, () => (rng.chance(0.05) ? rng.pick(HOSTILE_STRINGS) : rng.pick(from)));
    for (let i = 0; i < CASES[db.name] * SCALE; i++) {
      const query = rng.chance(0.5) ? wellFormed(rng) : junk(rng, queries, pickSome);
      const path = `/books/aggregate?${query.toString()}`;
      const res = await request(t.server).get(path);
      counts.set(String(res.status), (counts.get(String(res.status)) ?? 0) + 1);
      const label = `GET ${path.slice(0, 300)}`;
      if (res.status >= 500) failures.push(`${label} -> ${res.status} ${JSON.stringify(bodyOf(res)).slice(0, 300)}`);
      if (res.status >= 400) {
        const reason = contractViolation(res);
        if (reason) failures.push(`${label} -> ${res.status} (${reason})`);
        continue;
      }
      const body = res.body as { items: { count: number }[]; limit: number; total: number };
      if (body.items.length > Math.min(body.limit, MAX_GROUPS))
        failures.push(`${label} -> ${body.items.length} groups`);
      if (!query.has('groupBy') && body.total !== 1) failures.push(`${label} -> ungrouped total ${body.total}`);
      if (!query.has('groupBy') && !query.has('offset')) {
        // The same filter and search through the list: the one group counts what the list's total counts.
        const list = new URLSearchParams(
          [...query].filter(([key]) => key.startsWith('filter') || key === 'search[query]'),
        );
        list.append('limit', '1');
        const listed = await request(t.server).get(`/books?${list.toString()}`);
        if (listed.status === 200 && listed.body.total !== body.items[0]?.count)
          failures.push(`${label} -> count ${body.items[0]?.count} but the list counts ${listed.body.total}`);
      }
    }
    report(`aggregate fuzz ${db.name}: ${CASES[db.name] * SCALE} cases, seed ${SEED}: ${formatCounts(counts)}\n`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(prototypeSnapshot()).toEqual(prototypes);
  }, 600_000);
});
