/**
 * Batch write fuzz: seeded `POST /books/batch` bodies (valid items beside junk, hostile strings, repeated and foreign
 * targets, oversized arrays) and `PATCH /books` / `DELETE /books` with the query fuzz's generated filters and
 * random patches. Every answer is below 500 and meets the problem contract, a refused batch leaves every table as it
 * was, and an accepted one wrote exactly the rows it answers.
 */
import request from 'supertest';
import { Author, Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';
import { bodyOf, contractViolation, formatCounts, prototypeSnapshot, tableChecksums } from './fuzz-support';
import { HOSTILE_STRINGS, Prng, QueryGenerator, seedFrom } from './query-generator';
import { report } from '../support/test-report';

const SEED = seedFrom(process.env['FUZZ_SEED'], 20261128);
const SCALE = Number(process.env['FUZZ_CASES'] ?? 1);
const CASES: Record<TestDatabaseName, number> = { sqlite: 600, postgres: 200, mysql: 200 };
const MAX_ITEMS = 20;
const MAX_AFFECTED = 15;

function randomValue(rng: Prng): unknown {
  return rng.weighted<() => unknown>([
    [4, () => rng.int(-5, 2_000)],
    [4, () => `title ${rng.int(0, 99)}`],
    [1, () => null],
    [2, () => rng.pick(HOSTILE_STRINGS)],
    [1, () => ({ nested: { deep: [1, 2, 3] } })],
    [1, () => [rng.int(0, 9)]],
    [1, () => true],
  ])();
}

const FIELDS = ['title', 'pages', 'rating', 'isbn', 'published', 'authorId', 'author', 'id', 'deletedAt', '__proto__'];

function randomItem(rng: Prng, authors: readonly number[]): unknown {
  if (rng.chance(0.05)) return randomValue(rng);
  const item: Record<string, unknown> = {};
  if (rng.chance(0.95)) item['title'] = rng.chance(0.95) ? `batch ${rng.int(0, 9_999)}` : randomValue(rng);
  if (rng.chance(0.5)) item['pages'] = rng.chance(0.95) ? rng.int(0, 900) : randomValue(rng);
  if (rng.chance(0.4)) item['isbn'] = rng.chance(0.8) ? `fz-${rng.int(0, 60)}` : randomValue(rng);
  if (rng.chance(0.3)) item['authorId'] = rng.chance(0.8) ? rng.pick(authors) : rng.int(-3, 99_999);
  if (rng.chance(0.15)) item[rng.pick(FIELDS)] = randomValue(rng);
  return item;
}

describe.each(TEST_DATABASES)('batch write fuzz on $name', (db) => {
  let t: TestApp;
  let authors: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'fuzz_batch_writes',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          batch: {
            create: { onConflict: { target: ['isbn'], update: ['title', 'pages'] } },
            update: true,
            delete: true,
            maxItems: MAX_ITEMS,
            maxAffected: MAX_AFFECTED,
          },
        }),
      ],
    });
    const saved = await t.dataSource.getRepository(Author).save([{ name: 'Ann' }, { name: 'Bob' }]);
    authors = saved.map((author) => author.id);
    await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 40 }, (_, i) => ({ title: `Book ${i}`, pages: i * 10, isbn: `fz-${i}` })));
  }, 60_000);
  afterAll(() => t?.close());

  it(`answers every batch below 500 and writes all of one or none of it (${CASES[db.name] * SCALE} cases)`, async () => {
    const rng = new Prng(SEED);
    const queries = new QueryGenerator(new Prng(SEED + 1), { maxLength: 2_000 });
    const prototypes = prototypeSnapshot();
    const counts = new Map<string, number>();
    const failures: string[] = [];
    const books = t.dataSource.getRepository(Book);
    for (let i = 0; i < CASES[db.name] * SCALE; i++) {
      const kind = rng.pick(['create', 'update', 'delete'] as const);
      const before = await tableChecksums(t.dataSource);
      const rowsBefore = await books.count({ withDeleted: true });
      let res: request.Response;
      let label: string;
      if (kind === 'create') {
        const size = rng.weighted<() => number>([
          [6, () => rng.int(1, 8)],
          [2, () => rng.int(9, MAX_ITEMS)],
          [1, () => rng.int(MAX_ITEMS + 1, 200)],
          [1, () => 0],
        ])();
        const items = Array.from({ length: size }, () => randomItem(rng, authors));
        const body = rng.chance(0.03) ? randomValue(rng) : items;
        label = `POST /books/batch ${JSON.stringify(body).slice(0, 200)}`;
        res = await request(t.server)
          .post('/books/batch')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
      } else {
        // The query fuzz's generated filter (and now and then its other list parameters, which a batch refuses).
        const generated = new URLSearchParams(queries.next().query);
        const query = new URLSearchParams();
        for (const [key, value] of generated)
          if (key.startsWith('filter') || rng.chance(0.05)) query.append(key, value);
        // A plain filter half the time the generator gave none, so some batches match rows and change them.
        if (![...query.keys()].some((key) => key.startsWith('filter')) && rng.chance(0.5)) {
          query.append(`filter[pages][${rng.pick(['gte', 'lt', 'eq'])}]`, String(rng.int(0, 400)));
        }
        const path = `/books?${query.toString()}`;
        if (kind === 'update') {
          const patch = rng.chance(0.9)
            ? { pages: rng.int(0, 900), ...(rng.chance(0.3) ? { title: randomValue(rng) } : {}) }
            : randomValue(rng);
          label = `PATCH ${path.slice(0, 200)} ${JSON.stringify(patch).slice(0, 100)}`;
          res = await request(t.server).patch(path).set('Content-Type', 'application/json').send(JSON.stringify(patch));
        } else {
          label = `DELETE ${path.slice(0, 200)}`;
          res = await request(t.server).delete(path);
        }
      }
      counts.set(`${kind} ${res.status}`, (counts.get(`${kind} ${res.status}`) ?? 0) + 1);
      if (res.status >= 500) failures.push(`${label} -> ${res.status} ${JSON.stringify(bodyOf(res)).slice(0, 300)}`);
      if (res.status >= 400) {
        const reason = contractViolation(res);
        if (reason) failures.push(`${label} -> ${res.status} (${reason})`);
        const after = await tableChecksums(t.dataSource);
        if (JSON.stringify(after) !== JSON.stringify(before)) failures.push(`${label} -> ${res.status} wrote part`);
        continue;
      }
      const answer = res.body as { items: unknown[]; total: number; meta?: { created: number } };
      if (answer.items.length !== answer.total) failures.push(`${label} -> total ${answer.total} ≠ items`);
      const added = (await books.count({ withDeleted: true })) - rowsBefore;
      const expected = kind === 'create' ? (answer.meta?.created ?? answer.total) : 0;
      if (added !== expected) failures.push(`${label} -> ${res.status} but ${added} rows added, not ${expected}`);
      if (kind !== 'create' && answer.total > MAX_AFFECTED) failures.push(`${label} -> changed ${answer.total} rows`);
      // Keep the table small and varied: a delete that emptied it is followed by fresh rows.
      if ((await books.count()) < 10) {
        await books.save(Array.from({ length: 20 }, (_, n) => ({ title: `Refill ${i}-${n}`, pages: n * 7 })));
      }
    }
    report(`batch write fuzz ${db.name}: ${CASES[db.name] * SCALE} cases, seed ${SEED}: ${formatCounts(counts)}\n`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(prototypeSnapshot()).toEqual(prototypes);
  }, 600_000);
});
