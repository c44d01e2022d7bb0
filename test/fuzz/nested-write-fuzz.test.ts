/**
 * Nested write fuzz: seeded `POST /books` and `PATCH /books/:id` bodies carrying nested forms (valid ones beside
 * unknown forms, two forms in one, junk payloads, hostile strings, ids of the other tenant or of no row, members past
 * the limit, nesting past the depth, prototype keys). Every answer is below 500 and meets the problem contract, a
 * refused write leaves every table (join table included) as it was, and the other tenant's rows never change.
 */
import request from 'supertest';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';
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
} from '../e2e/support/nested-fixtures';
import { bodyOf, contractViolation, formatCounts, prototypeSnapshot, tableChecksums } from './fuzz-support';
import { HOSTILE_STRINGS, Prng, seedFrom } from './query-generator';
import { report } from '../support/test-report';

const SEED = seedFrom(process.env['FUZZ_SEED'], 20261207);
const SCALE = Number(process.env['FUZZ_CASES'] ?? 1);
const CASES: Record<TestDatabaseName, number> = { sqlite: 300, postgres: 120, mysql: 120 };

interface Known {
  readonly mine: { authors: number[]; tags: number[]; books: number[] };
  readonly theirs: { authors: number[]; tags: number[] };
}

function junk(rng: Prng): unknown {
  return rng.weighted<() => unknown>([
    [3, () => rng.pick(HOSTILE_STRINGS)],
    [2, () => rng.int(-5, 99_999)],
    [1, () => null],
    [1, () => []],
    [1, () => ({ deep: { deeper: [1, { x: 2 }] } })],
    [1, () => JSON.parse('{"__proto__": {"polluted": true}}') as unknown],
  ])();
}

function id(rng: Prng, mine: readonly number[], theirs: readonly number[]): unknown {
  return rng.weighted<() => unknown>([
    [6, () => rng.pick(mine)],
    [2, () => rng.pick(theirs)],
    [1, () => 987_654],
    [1, () => junk(rng)],
  ])();
}

function tagName(rng: Prng): unknown {
  return rng.chance(0.9) ? `t${rng.int(0, 40)}` : junk(rng);
}

/** One nested form for a relation, now and then malformed. */
function form(rng: Prng, relation: 'author' | 'tags' | 'reviews', known: Known, depth: number): unknown {
  if (rng.chance(0.06)) return junk(rng);
  if (rng.chance(0.04)) return { create: {}, connect: { id: 1 } };
  const kind = rng.pick(['create', 'connect', 'connectOrCreate', 'update', 'upsert'] as const);
  if (kind === 'upsert') return { upsert: { id: 1 } };
  if (relation === 'author') {
    if (kind === 'connect') return { connect: { id: id(rng, known.mine.authors, known.theirs.authors) } };
    if (kind === 'update')
      return {
        update: {
          where: { id: id(rng, known.mine.authors, known.theirs.authors) },
          data: { name: rng.chance(0.9) ? `A${rng.int(0, 9)}` : junk(rng) },
        },
      };
    return { [kind]: rng.chance(0.9) ? { name: rng.chance(0.9) ? `Author ${rng.int(0, 99)}` : junk(rng) } : junk(rng) };
  }
  if (relation === 'tags') {
    if (kind === 'connect') return { connect: { id: id(rng, known.mine.tags, known.theirs.tags) } };
    if (kind === 'connectOrCreate')
      return { connectOrCreate: { where: { name: tagName(rng) }, create: rng.chance(0.9) ? {} : { name: junk(rng) } } };
    return { [kind]: { name: tagName(rng), ...(rng.chance(0.1) ? { tenant: 'b' } : {}) } };
  }
  // A review created under the book, now and then with a body of its own nested write (a relation it has none of).
  const create: Record<string, unknown> = { rating: rng.chance(0.9) ? rng.int(1, 5) : junk(rng) };
  if (rng.chance(0.05)) create['book'] = { connect: { id: 1 } };
  if (depth > 0 && rng.chance(0.05)) create['bookId'] = rng.int(1, 9);
  return { [kind]: create };
}

function body(rng: Prng, known: Known, create: boolean): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (create || rng.chance(0.3)) result['title'] = rng.chance(0.95) ? `Fuzz ${rng.int(0, 9_999)}` : junk(rng);
  if (rng.chance(0.5))
    result['author'] = rng.chance(0.1)
      ? { id: id(rng, known.mine.authors, known.theirs.authors) }
      : form(rng, 'author', known, 1);
  for (const relation of ['tags', 'reviews'] as const) {
    if (!rng.chance(0.5)) continue;
    const count = rng.weighted<() => number>([
      [8, () => rng.int(0, 4)],
      [1, () => rng.int(5, 9)],
    ])();
    result[relation] = rng.chance(0.05)
      ? form(rng, relation, known, 1)
      : Array.from({ length: count }, () => form(rng, relation, known, 1));
  }
  if (rng.chance(0.05)) result['nope'] = junk(rng);
  return result;
}

describe.each(TEST_DATABASES)('nested write fuzz on $name', (db) => {
  let t: TestApp;
  const known: Known = { mine: { authors: [], tags: [], books: [] }, theirs: { authors: [], tags: [] } };

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'fuzz_nested_writes',
      entities: NESTED_ENTITIES,
      controllers: [
        svcController('books', NwBook, BOOK_CONFIG),
        svcController('authors', NwAuthor, AUTHOR_CONFIG),
        svcController('tags', NwTag, TAG_CONFIG),
        svcController('reviews', NwReview, REVIEW_CONFIG),
      ],
    });
    const authors = t.dataSource.getRepository(NwAuthor);
    const tags = t.dataSource.getRepository(NwTag);
    known.mine.authors.push(
      ...(
        await authors.save([
          { tenant: 'a', name: 'Ann' },
          { tenant: 'a', name: 'Al' },
        ])
      ).map((row) => row.id),
    );
    known.theirs.authors.push((await authors.save({ tenant: 'b', name: 'Bob' })).id);
    known.mine.tags.push(
      ...(
        await tags.save([
          { tenant: 'a', name: 't1' },
          { tenant: 'a', name: 't2' },
        ])
      ).map((row) => row.id),
    );
    known.theirs.tags.push(
      ...(
        await tags.save([
          { tenant: 'b', name: 't3' },
          { tenant: 'b', name: 't4' },
        ])
      ).map((row) => row.id),
    );
    const book = await t.dataSource.getRepository(NwBook).save({ tenant: 'a', title: 'Seed' });
    known.mine.books.push(book.id);
    await t.dataSource.getRepository(NwBook).save({ tenant: 'b', title: 'Theirs' });
  }, 60_000);
  afterAll(() => t?.close());

  it(`answers every nested write below 500, and writes all of one or none of it (${CASES[db.name] * SCALE} cases)`, async () => {
    const rng = new Prng(SEED);
    const prototypes = prototypeSnapshot();
    const counts = new Map<string, number>();
    const failures: string[] = [];
    const theirs = async () =>
      JSON.stringify([
        await t.dataSource.getRepository(NwBook).find({ where: { tenant: 'b' }, order: { id: 'ASC' } }),
        await t.dataSource.getRepository(NwAuthor).find({ where: { tenant: 'b' }, order: { id: 'ASC' } }),
        await t.dataSource.getRepository(NwTag).find({ where: { tenant: 'b' }, order: { id: 'ASC' } }),
      ]);
    const untouched = await theirs();
    for (let i = 0; i < CASES[db.name] * SCALE; i++) {
      const create = rng.chance(0.7);
      const sent = body(rng, known, create);
      const path = create ? '/books' : `/books/${String(rng.pick(known.mine.books))}`;
      const label = `${create ? 'POST' : 'PATCH'} ${path} ${JSON.stringify(sent).slice(0, 300)}`;
      const before = await tableChecksums(t.dataSource);
      const server = request(t.server);
      const res = await (create ? server.post(path) : server.patch(path))
        .set('x-tenant', 'a')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(sent));
      counts.set(
        `${create ? 'create' : 'patch'} ${res.status}`,
        (counts.get(`${create ? 'create' : 'patch'} ${res.status}`) ?? 0) + 1,
      );
      if (res.status >= 500) failures.push(`${label} -> ${res.status} ${JSON.stringify(bodyOf(res)).slice(0, 300)}`);
      if (res.status >= 400) {
        const reason = contractViolation(res);
        if (reason) failures.push(`${label} -> ${res.status} (${reason})`);
        if (JSON.stringify(await tableChecksums(t.dataSource)) !== JSON.stringify(before))
          failures.push(`${label} -> ${res.status} wrote part`);
        continue;
      }
      if (create) known.mine.books.push((res.body as { id: number }).id);
    }
    if ((await theirs()) !== untouched) failures.push('the other tenant’s rows changed');
    report(`nested write fuzz ${db.name}: ${CASES[db.name] * SCALE} cases, seed ${SEED}: ${formatCounts(counts)}\n`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(prototypeSnapshot()).toEqual(prototypes);
  }, 600_000);
});
