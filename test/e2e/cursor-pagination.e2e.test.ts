/** The cursor (keyset) strategy: opaque tokens, sorts ending in the primary key, exact paging, refusals. */
import { createSvc } from '@svc/core';
import { typeorm } from '@svc/typeorm';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book, Edition } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

interface Page {
  items: { id: number; pages: number }[];
  limit: number;
  offset: number;
  total: number | null;
  meta: { nextCursor: string | null };
}

describe.each(TEST_DATABASES)('cursor pagination on $name', (db) => {
  let t: TestApp;
  const get = async (path: string) => (await request(t.server).get(path).expect(200)).body as Page;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_cursor',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          pagination: { strategy: 'cursor', defaultLimit: 7 },
          sort: { default: ['-pages', 'id'] },
        }),
        svcController('narrow', Book, { pagination: { strategy: 'cursor' }, filter: { fields: ['title', 'id'] } }),
      ],
    });
    // 30 books, many sharing a pages value, so the tie-breaker on the primary key matters.
    await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 30 }, (_, i) => ({ title: `Book ${i}`, pages: i % 4 })));
  });
  afterAll(() => t.close());

  it('pages through every row exactly once, in order, with nextCursor null on the last page', async () => {
    const seen: number[] = [];
    let page = await get('/books');
    expect(page).toMatchObject({ limit: 7, offset: 0, total: 30 });
    for (let guard = 0; guard < 10; guard++) {
      seen.push(...page.items.map((item) => item.id));
      if (page.meta.nextCursor === null) break;
      page = await get(`/books?cursor=${page.meta.nextCursor}`);
      expect(page.offset).toBe(0);
      expect(page.total).toBe(30);
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    const all = await request(t.server).get('/books?limit=100').expect(200);
    expect(seen).toEqual(all.body.items.map((item: { id: number }) => item.id));
    expect(all.body.meta.nextCursor).toBeNull();
  });

  /** Every id in the order the cursor pages serve them, following nextCursor to the end. */
  const pageAll = async (query: string): Promise<number[]> => {
    const seen: number[] = [];
    let page = await get(`/books?${query}`);
    for (let guard = 0; guard < 40; guard++) {
      seen.push(...page.items.map((item) => item.id));
      if (page.meta.nextCursor === null) break;
      page = await get(`/books?${query}&cursor=${page.meta.nextCursor}`);
    }
    return seen;
  };
  const setColumn = (column: 'updatedAt' | 'rating', value: (id: number) => string | number | null) =>
    Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.dataSource
          .createQueryBuilder()
          .update(Book)
          .set({ [column]: () => ':value' })
          .setParameter('value', value(i + 1))
          .where('id = :id', { id: i + 1 })
          .execute(),
      ),
    );

  it('pages a date-time key exactly, rows a millisecond apart or less included, in both directions', async () => {
    // Groups of rows share a timestamp; neighbouring groups differ by a microsecond (PostgreSQL, MariaDB) or by
    // SQLite's two spellings of one second ('...:01' as datetime('now') writes it, '...:01.000' as TypeORM does).
    await setColumn('updatedAt', (id) => {
      const group = id % 5;
      if (db.name === 'sqlite') return group === 0 ? '2026-11-23 12:00:01' : `2026-11-23 12:00:01.00${group}`;
      return `2026-11-23 12:00:01.00000${group}`;
    });
    for (const sort of ['updatedAt,id', '-updatedAt,-id', '-updatedAt,id']) {
      const seen = await pageAll(`sort=${sort}&limit=4`);
      const all = await get(`/books?sort=${sort}&limit=100`);
      expect(seen).toEqual(all.items.map((item) => item.id));
      expect(new Set(seen).size).toBe(30);
    }
  });

  it('pages through null keys, nulls sorting as the largest value on every database', async () => {
    await setColumn('rating', (id) => (id % 3 === 0 ? null : id % 4));
    for (const sort of ['rating,id', '-rating,id', 'rating,-id', '-rating,-id']) {
      const seen = await pageAll(`sort=${sort}&limit=3`);
      const all = (await get(`/books?sort=${sort}&limit=100`)).items as unknown as { id: number; rating: number }[];
      expect(seen).toEqual(all.map((item) => item.id));
      expect(new Set(seen).size).toBe(30);
      const nullsAt = all.map((item) => item.rating === null);
      const firstNull = nullsAt.indexOf(true);
      // Ascending: nulls last; descending: nulls first.
      if (sort.startsWith('-')) expect(nullsAt.slice(0, 10).every(Boolean)).toBe(true);
      else expect(nullsAt.slice(firstNull).every(Boolean)).toBe(true);
    }
  });

  it('pages the programmatic query with the same cursors', async () => {
    const books = createSvc({ infrastructure: typeorm({ dataSource: t.dataSource }) }).createCrud<Book>(Book, {
      pagination: { strategy: 'cursor' },
    });
    const first = await books.findMany({ limit: 10 });
    const second = await books.findMany({ limit: 10, cursor: first.meta?.['nextCursor'] as string });
    expect(second.items[0]!.id).toBeGreaterThan(first.items[9]!.id);
  });

  it('keeps filters and limit across pages', async () => {
    const first = await get('/books?filter[pages][eq]=1&limit=3');
    const second = await get(`/books?filter[pages][eq]=1&limit=3&cursor=${first.meta.nextCursor}`);
    expect([...first.items, ...second.items].every((item) => item.pages === 1)).toBe(true);
    expect(second.total).toBe(first.total);
  });

  it('refuses a tampered, malformed or other-sort cursor with SVC_QUERY_INVALID naming cursor', async () => {
    const first = await get('/books?limit=2');
    const other = await request(t.server).get(`/books?sort=pages,id&cursor=${first.meta.nextCursor}`).expect(400);
    expect(other.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'cursor' }] });
    for (const bad of ['not-a-cursor!', 'eyJzIjoxfQ', `${first.meta.nextCursor}x`]) {
      const response = await request(t.server)
        .get(`/books?cursor=${encodeURIComponent(bad)}`)
        .expect(400);
      expect(response.body.errors[0].param).toBe('cursor');
    }
  });

  it('refuses a sort that does not end in the primary key, naming it, and offset, which it does not take', async () => {
    const response = await request(t.server).get('/books?sort=id,pages').expect(400);
    expect(response.body.errors[0].detail).toContain("'id'");
    const offset = await request(t.server).get('/books?offset=5').expect(400);
    expect(offset.body).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', errors: [{ param: 'offset' }] });
  });

  it('refuses a sort key that is not on filter.fields', async () => {
    const response = await request(t.server).get('/narrow?sort=pages,id').expect(400);
    expect(response.body.errors[0].detail).toContain('filter.fields');
  });
});

describe('cursor bootstrap errors', () => {
  it('refuses a composite primary key', async () => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_cursor_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', Edition, { pagination: { strategy: 'cursor' } })],
    });
    expect(error.message).toContain('composite');
  });
});
