/**
 * Keyset token fuzz: random, truncated, tampered and hostile `cursor` and `since` tokens against cursor and since
 * resources (date-time, nullable and string keys). Every answer is a page or a problem below 500, tokens that Svc
 * issued always page forward, and no table changes.
 */
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Author, Book, Review, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabaseName } from '../support/test-databases';
import { bodyOf, contractViolation, formatCounts, runPool, tableChecksums } from './fuzz-support';
import { HOSTILE_STRINGS, Prng, seedFrom } from './query-generator';
import { report } from '../support/test-report';

const SEED = seedFrom(process.env['FUZZ_SEED'], 20261123);
const CASES: Record<TestDatabaseName, number> = { sqlite: 3_000, postgres: 1_500, mysql: 1_500 };
const SORTS = ['updatedAt,id', '-updatedAt,id', 'rating,id', '-rating,-id', 'title,id', 'id'];

const toBase64Url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** A random value of some JSON kind, biased towards the shapes tokens hold. */
function anyValue(rng: Prng): unknown {
  return rng.weighted<() => unknown>([
    [3, () => rng.int(-5, 10_000_000_000)],
    [
      2,
      () =>
        `2026-11-${String(rng.int(0, 40)).padStart(2, '0')} ${rng.int(0, 30)}:${rng.int(0, 70)}:00.${rng.int(0, 9_999_999)}`,
    ],
    [2, () => new Date(Date.UTC(rng.int(1, 12000), 0, 1)).toISOString()],
    [1, () => null],
    [1, () => rng.pick(HOSTILE_STRINGS)],
    [1, () => ({ databaseSpelling: '2026-01-01 00:00:00' })],
    [1, () => [1, 2]],
    [1, () => rng.float()],
    [1, () => '\u0000'],
  ])();
}

function randomCursor(rng: Prng, issued: readonly string[]): string {
  return rng.weighted<() => string>([
    [
      3,
      () =>
        toBase64Url(
          JSON.stringify({ s: rng.pick(SORTS).replace(/,/g, ':asc,') + ':asc', v: [anyValue(rng), anyValue(rng)] }),
        ),
    ],
    [
      2,
      () =>
        toBase64Url(
          JSON.stringify({
            s: rng.pick(['updatedAt:asc,id:asc', 'rating:asc,id:asc']),
            v: [anyValue(rng), anyValue(rng)],
          }),
        ),
    ],
    [2, () => (issued.length > 0 ? rng.pick(issued).slice(0, rng.int(0, 60)) : 'x')],
    [1, () => (issued.length > 0 ? `${rng.pick(issued)}${rng.pick(['A', '-', '_', '=='])}` : 'y')],
    [1, () => toBase64Url(rng.pick(HOSTILE_STRINGS))],
    [1, () => rng.pick(HOSTILE_STRINGS)],
  ])();
}

function randomSince(rng: Prng, issued: readonly string[]): string {
  return rng.weighted<() => string>([
    [3, () => `${String(anyValue(rng))}|${String(anyValue(rng))}`],
    [2, () => (issued.length > 0 ? rng.pick(issued).slice(0, rng.int(0, 40)) : '|')],
    [1, () => (issued.length > 0 ? rng.pick(issued).replace(/\d/, String(rng.int(0, 9))) : '1|1')],
    [1, () => `${rng.pick(HOSTILE_STRINGS)}|${rng.pick(HOSTILE_STRINGS)}`],
    [1, () => rng.pick(HOSTILE_STRINGS)],
  ])();
}

describe.each(TEST_DATABASES)('keyset token fuzz on $name', (db) => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'fuzz_keyset',
      entities: [Author, Tag, Book, Review],
      controllers: [
        svcController('cursor', Book, { pagination: { strategy: 'cursor', defaultLimit: 3 } }),
        svcController('since', Book, { pagination: { strategy: 'since', defaultLimit: 3 } }),
        svcController('since-title', Book, { pagination: { strategy: 'since', since: { field: 'title' } } }),
      ],
    });
    await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 12 }, (_, i) => ({ title: `Book ${i % 5}|${i}`, rating: i % 3 === 0 ? null : i })));
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(() => t?.close());

  it(`answers every random token with a page or a problem below 500 (${CASES[db.name]} cases)`, async () => {
    const rng = new Prng(SEED);
    const before = await tableChecksums(t.dataSource);
    // Tokens Svc issued, to mutate.
    const issued = { cursor: [] as string[], since: [] as string[] };
    for (const sort of SORTS) {
      const page = await request(base).get(`/cursor?sort=${sort}`).expect(200);
      if (page.body.meta.nextCursor) issued.cursor.push(page.body.meta.nextCursor as string);
    }
    for (const path of ['/since', '/since-title']) {
      const page = await request(base).get(path).expect(200);
      issued.since.push(page.body.meta.nextSince as string);
    }
    const cases = Array.from({ length: CASES[db.name] }, () =>
      rng.chance(0.5)
        ? `/cursor?sort=${rng.pick(SORTS)}&cursor=${encodeURIComponent(randomCursor(rng, issued.cursor))}`
        : `${rng.pick(['/since', '/since-title'])}?since=${encodeURIComponent(randomSince(rng, issued.since))}`,
    );
    const counts = new Map<string, number>();
    const failures: string[] = [];
    await runPool(cases, 16, async (url) => {
      const res = await request(base).get(url).timeout(20_000);
      counts.set(String(res.status), (counts.get(String(res.status)) ?? 0) + 1);
      const reason = contractViolation(res, { keyset: true });
      if (reason) failures.push(`GET ${url} -> ${res.status} (${reason}) ${JSON.stringify(bodyOf(res)).slice(0, 300)}`);
    });
    report(`keyset fuzz ${db.name}: ${cases.length} cases, seed ${SEED}: ${formatCounts(counts)}\n`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(await tableChecksums(t.dataSource)).toEqual(before);
  }, 300_000);
});
