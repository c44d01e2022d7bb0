/**
 * Fuzzes the list query grammar (docs/reference/query.md) and its error reports (docs/reference/errors.md) over
 * HTTP: thousands of seeded random query strings (bracket trees, the JSON form, all operators and misspellings,
 * injection payloads, prototype keys, limits crossed, malformed numbers, dates and escapes) against a seeded
 * bookstore. Every answer must be a list envelope or an RFC 9457 problem below 500, no table may change, and no
 * prototype may gain a key.
 *
 * FUZZ_SEED=<n or text> replays another stream (the seed is in test-output/report.txt); FUZZ_CASES=<factor> scales
 * the counts (FUZZ_CASES=0.1 for a quick run, FUZZ_CASES=5 for a long one); FUZZ_VERBOSE=1 reports the problem codes
 * seen.
 */
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Author, Book, Review, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';
import {
  bodyOf,
  contractViolation,
  formatCounts,
  prototypeSnapshot,
  runPool,
  tableChecksums,
  type TableChecksums,
} from './fuzz-support';
import { OWN_COLUMNS, Prng, QueryGenerator, seedFrom, type FuzzCase } from './query-generator';
import { report } from '../support/test-report';

const SEED = seedFrom(process.env['FUZZ_SEED'], 20261123);
const SCALE = Number(process.env['FUZZ_CASES'] ?? '1') > 0 ? Number(process.env['FUZZ_CASES'] ?? '1') : 1;
const CASES: Record<TestDatabaseName, number> = { sqlite: 20_000, postgres: 5_000, mysql: 5_000 };
const CONCURRENCY = 20;
/** Below Node's 16 KB header limit, with room for the request line and headers. */
const MAX_QUERY_LENGTH = 14_000;
/** FUZZ_VERBOSE=1 reports how often each problem code came back, with a sample query each. */
const VERBOSE = process.env['FUZZ_VERBOSE'] === '1';
const ENTITIES = [Author, Tag, Book, Review];

/**
 * Input classes of bugs reported and pinned by the `it.failing` tests below: the generator skips them so that the
 * remaining cases still run. Returns the bug's name, or undefined. None today: the one bug found so far (a datetime
 * past year 9999) gives a wrong result, which the per-response invariants cannot see, so no case needs skipping.
 */
export function knownBugs(_fuzzCase: FuzzCase, _db: TestDatabaseName): string | undefined {
  return undefined;
}

interface Failure {
  readonly query: string;
  readonly status: number;
  readonly reason: string;
  readonly body: string;
}

describe.each(TEST_DATABASES)('query fuzz on $name', (db) => {
  let t: TestApp;
  let base: string;
  let before: TableChecksums;
  let prototypesBefore: string[];
  const get = (path: string) => request(base).get(path).timeout(20_000);

  beforeAll(async () => {
    prototypesBefore = prototypeSnapshot();
    t = await createTestApp({
      db,
      suite: 'fuzz_query',
      entities: ENTITIES,
      controllers: [
        svcController('books', Book, {
          filter: { fields: [...OWN_COLUMNS, 'author.country', 'tags.name', 'reviews.rating'] },
          search: { fields: ['title', 'author.name'] },
          include: { fields: ['author', 'tags', 'reviews'] },
        }),
        svcController('plain-books', Book),
      ],
    });
    await seed(t);
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    before = await tableChecksums(t.dataSource);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it(`answers every random query with a list or a problem below 500 (${Math.round(CASES[db.name] * SCALE)} cases)`, async () => {
    const total = Math.round(CASES[db.name] * SCALE);
    const generator = new QueryGenerator(new Prng(SEED), { maxLength: MAX_QUERY_LENGTH });
    const cases: FuzzCase[] = [];
    const skipped = new Map<string, number>();
    while (cases.length < total) {
      const next = generator.next();
      const bug = knownBugs(next, db.name);
      if (bug === undefined) cases.push(next);
      else skipped.set(bug, (skipped.get(bug) ?? 0) + 1);
    }
    const counts = new Map<string, number>();
    const codes = new Map<string, number>();
    const samples = new Map<string, string>();
    const failures: Failure[] = [];
    const started = Date.now();
    await runPool(cases, CONCURRENCY, async (fuzzCase) => {
      const url = `${fuzzCase.path}?${fuzzCase.query}`;
      let status: string;
      try {
        const res = await get(url);
        status = String(res.status);
        const reason = contractViolation(res);
        if (VERBOSE) {
          const code = problemCodes(bodyOf(res));
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (!samples.has(code)) samples.set(code, url.slice(0, 300));
        }
        if (reason !== undefined) {
          failures.push({ query: url, status: res.status, reason, body: JSON.stringify(bodyOf(res)).slice(0, 600) });
        }
      } catch (error) {
        status = 'error';
        failures.push({ query: url, status: 0, reason: `request failed: ${String(error)}`, body: '' });
      }
      counts.set(status, (counts.get(status) ?? 0) + 1);
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const skippedText = skipped.size > 0 ? `; known bugs skipped: ${formatCounts(skipped)}` : '';
    report(
      `fuzz ${db.name}: ${cases.length} cases, seed ${SEED}, ${seconds} s: ${formatCounts(counts)}${skippedText}\n`,
    );
    if (VERBOSE) {
      for (const [code, count] of [...codes.entries()].sort(([, a], [, b]) => b - a)) {
        report(`  ${count}\t${code}\t${samples.get(code)}\n`);
      }
    }
    if (failures.length > 0) {
      const shown = failures
        .slice(0, 20)
        .map(
          (failure) =>
            `  GET ${failure.query.slice(0, 400)}\n    -> ${failure.status} (${failure.reason}) ${failure.body}`,
        )
        .join('\n');
      throw new Error(
        `${failures.length} of ${cases.length} fuzz cases broke the query rules on ${db.name} (FUZZ_SEED=${SEED}):\n${shown}`,
      );
    }
  }, 300_000);

  // Dates and date-times are held to years 1000-9999 (UTC), which every supported database stores and compares.
  it('refuses a datetime past year 9999 once its offset is applied, naming the parameter', async () => {
    const later = await get('/books?filter[updatedAt][gt]=9999-12-31T23:59:59-14:00&limit=0');
    expect(later.status).toBe(400);
    expect(later.body.errors[0].param).toBe('filter[updatedAt][gt]');
  });

  it('leaves every table as it was: row counts and a hash of all rows', async () => {
    expect(await tableChecksums(t.dataSource)).toEqual(before);
  });

  it('pollutes no prototype', () => {
    expect(Object.keys(Object.prototype)).toHaveLength(0);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(prototypeSnapshot()).toEqual(prototypesBefore);
  });
});

/** `SVC_QUERY_INVALID too_deep,invalid_value` for a problem, `list` for a list. */
function problemCodes(body: unknown): string {
  if (body === null || typeof body !== 'object') return 'non-object';
  const problem = body as { code?: unknown; errors?: { code?: unknown }[] };
  if (problem.code === undefined) return 'list';
  const items = Array.isArray(problem.errors) ? [...new Set(problem.errors.map((entry) => String(entry.code)))] : [];
  return `${String(problem.code)} ${items.sort().join(',')}`;
}

/** ~200 books (25 soft-deleted), 30 authors, 10 tags and ~400 reviews, from a fixed seed of their own. */
async function seed(t: TestApp): Promise<void> {
  const rng = new Prng(424242);
  const data = t.dataSource;
  const odd = ["O'Brien", 'Ann "Quotes"', 'Back\\slash', '100% Pure', 'Under_score', 'Semi;colon'];
  const authors = await data.getRepository(Author).save(
    Array.from({ length: 30 }, (_, i) => ({
      name: i < odd.length ? odd[i]! : `Author ${i}`,
      country: rng.pick(['UK', 'US', 'FR', 'DE', null]),
    })),
  );
  const tags = await data
    .getRepository(Tag)
    .save(['red', 'blue', 'green', 'sci-fi', "it's", '50%', 'a_b', 'back\\', 'Night', 'sea'].map((name) => ({ name })));
  const weird = ["' OR 1=1 --", '100% Night', 'Sea_Wolf', 'C:\\path\\', '"; DROP TABLE book; --', 'Ünïcödé'];
  const words = ['Night', 'Sea', 'Red', 'of', 'the', 'Book', 'Stars', 'Iron'];
  const books = await data.getRepository(Book).save(
    Array.from({ length: 200 }, (_, i) => ({
      title: i < weird.length ? weird[i]! : `Book ${i} ${rng.pick(words)} ${rng.pick(words)}`,
      pages: rng.int(0, 420),
      rating: i % 7 === 0 ? null : rng.int(0, 50) / 10,
      published: rng.chance(0.5),
      isbn: i % 3 === 0 ? null : `ISBN-${i}`,
      author: rng.chance(0.1) ? null : rng.pick(authors),
      tags: Array.from(new Set(Array.from({ length: rng.int(0, 3) }, () => rng.pick(tags)))),
    })),
  );
  await data.getRepository(Review).save(
    Array.from({ length: 400 }, (_, i) => ({
      rating: rng.int(1, 5),
      body: i % 5 === 0 ? null : `review ${i} ${rng.pick(words)}`,
      book: rng.pick(books),
    })),
  );
  await data.getRepository(Book).softDelete(books.filter((_, i) => i % 8 === 3).map((book) => book.id));
}
