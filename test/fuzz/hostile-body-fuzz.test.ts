/**
 * Hostile body fuzz: deeply nested JSON bodies, filters hundreds or thousands of terms wide, member lists past every
 * bound and JSON Patch documents with random paths (prototype names included). Every answer is below 500, every
 * refused write leaves its rows exactly as they were, and every accepted one is whole.
 */
import { SvcException } from '@svc/core';
import { SvcRegistry } from '@svc/nestjs';
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES, Note, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';
import { bodyOf, contractViolation, formatCounts, prototypeSnapshot } from './fuzz-support';
import { HOSTILE_STRINGS, Prng, seedFrom } from './query-generator';
import { report } from '../support/test-report';

const SEED = seedFrom(process.env['FUZZ_SEED'], 20261124);
const SCALE = Number(process.env['FUZZ_CASES'] ?? 1);
const CASES: Record<TestDatabaseName, number> = { sqlite: 800, postgres: 300, mysql: 300 };
const PATHS = ['/title', '/pages', '/rating', '/authorId', '/tags/-', '/id', '/deletedAt', '/updatedAt', '/isbn'];
const PROTOTYPE_PATHS = ['/__proto__', '/constructor', '/toString', '/prototype', '/hasOwnProperty', '/valueOf'];

/** JSON text nested `levels` deep, mixing arrays and objects, built without recursion. */
function nestedJson(rng: Prng, levels: number): string {
  const opens: string[] = [];
  const closes: string[] = [];
  for (let i = 0; i < levels; i++) {
    const array = rng.chance(0.4);
    const key = rng.chance(0.1) ? '__proto__' : 'a';
    opens.push(array ? '[' : `{"${key}":`);
    closes.push(array ? ']' : '}');
  }
  return `${opens.join('')}${rng.chance(0.5) ? '1' : '"x"'}${closes.reverse().join('')}`;
}

function randomValue(rng: Prng): unknown {
  return rng.weighted<() => unknown>([
    [3, () => rng.int(-5, 2_000)],
    [2, () => `title ${rng.int(0, 99)}`],
    [1, () => null],
    [1, () => rng.pick(HOSTILE_STRINGS)],
    [1, () => Array.from({ length: rng.int(0, 3_000) }, () => rng.int(1, 1_500))],
    [1, () => JSON.parse(nestedJson(rng, rng.int(1, 60))) as unknown],
    [1, () => ({ title: 'polluted', isAdmin: true })],
  ])();
}

function randomPatch(rng: Prng): unknown[] {
  return Array.from({ length: rng.int(1, 6) }, () => {
    const path = rng.weighted<() => string>([
      [4, () => rng.pick(PATHS)],
      [2, () => rng.pick(PROTOTYPE_PATHS)],
      [1, () => `/tags/${rng.int(1, 1_500)}`],
      [1, () => `/${rng.pick(HOSTILE_STRINGS)}`],
    ])();
    const op = rng.pick(['add', 'remove', 'replace', 'test', 'move']);
    return op === 'remove' ? { op, path } : { op, path, value: randomValue(rng) };
  });
}

describe.each(TEST_DATABASES)('hostile body fuzz on $name', (db) => {
  let t: TestApp;
  let bookIds: number[] = [];
  const Books = svcController('books', Book, { relations: { tags: { write: { strategy: 'jsonPatch' } } } });

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'fuzz_hostile_bodies',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        Books,
        svcController('resource-books', Book, { relations: { tags: { write: { strategy: 'resource' } } } }),
        svcController('notes', Note),
      ],
    });
    await t.dataSource.getRepository(Tag).save(Array.from({ length: 1_200 }, (_, i) => ({ name: `tag-${i}` })));
    const books = await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 5 }, (_, i) => ({ title: `Book ${i}`, isbn: `isbn-${i}` })));
    bookIds = books.map((book) => book.id);
  }, 60_000);
  afterAll(() => t?.close());

  /** A book as stored, with its member ids: what a refused write must leave as it was. */
  async function stateOf(id: number): Promise<string> {
    const row = await t.dataSource.getRepository(Book).findOne({ where: { id }, relations: { tags: true } });
    const tags = (row?.tags ?? []).map((tag) => tag.id).sort((a, b) => a - b);
    return JSON.stringify({ ...row, tags, updatedAt: undefined });
  }

  it(`answers every hostile body below 500 and never writes part of one (${CASES[db.name] * SCALE} cases)`, async () => {
    const rng = new Prng(SEED);
    const prototypes = prototypeSnapshot();
    const counts = new Map<string, number>();
    const failures: string[] = [];
    const engine = t.app.get(SvcRegistry).engineFor(Books);
    let kind: 'deep' | 'filter' | 'members' | 'patch' = 'deep';
    const count = (status: number) => counts.set(`${kind} ${status}`, (counts.get(`${kind} ${status}`) ?? 0) + 1);
    for (let i = 0; i < CASES[db.name] * SCALE; i++) {
      kind = rng.pick(['deep', 'filter', 'members', 'patch'] as const);
      const book = rng.pick(bookIds);
      if (kind === 'filter') {
        const terms = rng.weighted<() => number>([
          [3, () => rng.int(1, 100)],
          [2, () => rng.int(101, 600)],
          [1, () => rng.int(1_000, 5_000)],
        ])();
        const conditions = Array.from({ length: terms }, () =>
          rng.chance(0.3)
            ? {
                title: {
                  in: Array.from({ length: rng.chance(0.01) ? 101 : rng.int(1, 100) }, () => `t${rng.int(0, 9)}`),
                },
              }
            : rng.chance(0.5)
              ? { title: { [rng.pick(['eq', 'contains', 'startsWith'])]: `t${rng.int(0, 9)}` } }
              : { [rng.pick(['pages', 'rating'])]: { [rng.pick(['eq', 'gte', 'lt'])]: rng.int(0, 9) } },
        );
        const filter = JSON.stringify({ [rng.pick(['or', 'and'])]: conditions });
        const status = await engine.execute({ operation: 'findMany', query: [['filter', filter]] }).then(
          (response) => response.status,
          (error: unknown) => (error instanceof SvcException ? error.status : 599),
        );
        count(status);
        if (status >= 500) failures.push(`filter of ${terms} terms -> ${status}`);
        continue;
      }
      const before = await stateOf(book);
      const notesBefore = await t.dataSource.getRepository(Note).count();
      let res: request.Response;
      let label: string;
      if (kind === 'deep') {
        const levels = rng.weighted<() => number>([
          [2, () => rng.int(1, 40)],
          [2, () => rng.int(40, 5_000)],
          [1, () => rng.int(5_000, 40_000)],
        ])();
        label = `POST /notes ${levels} levels`;
        res = await request(t.server)
          .post('/notes')
          .set('Content-Type', 'application/json')
          .send(`{"text":"deep","data":${nestedJson(rng, levels)}}`);
        const added = (await t.dataSource.getRepository(Note).count()) - notesBefore;
        if (added !== (res.status === 201 ? 1 : 0)) failures.push(`${label} -> ${res.status} but ${added} rows added`);
      } else if (kind === 'members') {
        const size = rng.weighted<() => number>([
          [3, () => rng.int(0, 1_000)],
          [2, () => rng.int(1_001, 3_000)],
          [1, () => rng.int(10_000, 150_000)],
        ])();
        const ids = Array.from({ length: size }, () => rng.int(1, 1_400));
        const method = rng.pick(['post', 'put'] as const);
        label = `${method.toUpperCase()} members ×${size}`;
        res = await request(t.server)[method](`/resource-books/${book}/tags`).send(ids);
      } else {
        const document = randomPatch(rng);
        label = `JSON Patch ${JSON.stringify(document).slice(0, 200)}`;
        res = await request(t.server)
          .patch(`/books/${book}`)
          .set('Content-Type', 'application/json-patch+json')
          .send(JSON.stringify(document));
      }
      count(res.status);
      // A 2xx write answers an item, not a list: only errors are checked against the problem contract.
      const reason = res.status >= 400 ? contractViolation(res) : undefined;
      if (reason) failures.push(`${label} -> ${res.status} (${reason})`);
      if (res.status >= 500) failures.push(`${label} -> ${res.status} ${JSON.stringify(bodyOf(res)).slice(0, 300)}`);
      if (res.status >= 400 && (await stateOf(book)) !== before) failures.push(`${label} -> ${res.status} wrote part`);
    }
    report(`hostile body fuzz ${db.name}: ${CASES[db.name] * SCALE} cases, seed ${SEED}: ${formatCounts(counts)}\n`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(prototypeSnapshot()).toEqual(prototypes);
  }, 600_000);
});
