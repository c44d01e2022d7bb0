/**
 * The since strategy: polling by (since.field, id) with plain `<value>|<id>` tokens, exact at each database's own
 * date-time precision, and a property test of exactly-once paging while rows are written between polls.
 */
import { createSvc } from '@svc/core';
import { typeorm } from '@svc/typeorm';
import request from 'supertest';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Author, BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabase } from '../support/test-databases';

@Entity('sync_item')
class SyncItem {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) label!: string;
  @Column({ type: 'int' }) version!: number;
  // Microseconds on PostgreSQL and MariaDB; SQLite keeps the text it is given.
  @Column({ precision: 6 }) changedAt!: Date;
  @Column({ type: 'varchar', length: 40, nullable: true }) note!: string | null;
}

interface Poll {
  items: { id: number; version: number; label: string; changedAt: string }[];
  limit: number;
  offset: number;
  total: number | null;
  meta: { nextSince: string | null };
}

/** The i-th timestamp of a run as the database is given it: µs apart on PostgreSQL and MariaDB, ms on SQLite. */
function spellingOf(db: TestDatabase, tick: number): string {
  const base = Date.UTC(2026, 10, 23, 12, 0, 0);
  if (db.name !== 'sqlite') {
    // Ticks 1 µs apart, so neighbours share the millisecond a JavaScript Date would keep.
    const micros = tick % 1_000_000;
    const whole = new Date(base + Math.floor(tick / 1_000_000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    return `${whole}.${String(micros).padStart(6, '0')}`;
  }
  // SQLite: whole seconds in datetime('now')'s spelling (no fraction), others as TypeORM writes them.
  const date = new Date(base + tick * 250);
  const text = date.toISOString().replace('T', ' ').replace('Z', '');
  return date.getUTCMilliseconds() === 0 ? text.slice(0, 19) : text;
}

describe.each(TEST_DATABASES)('since pagination on $name', (db) => {
  let t: TestApp;
  const poll = async (path: string) => (await request(t.server).get(path).expect(200)).body as Poll;
  const write = {
    insert: (label: string, tick: number) =>
      t.dataSource
        .createQueryBuilder()
        .insert()
        .into(SyncItem)
        .values({ label, version: 1, changedAt: () => ':ts' })
        .setParameter('ts', spellingOf(db, tick))
        .execute(),
    update: (id: number, version: number, tick: number) =>
      t.dataSource
        .createQueryBuilder()
        .update(SyncItem)
        .set({ version, changedAt: () => ':ts' })
        .setParameter('ts', spellingOf(db, tick))
        .where('id = :id', { id })
        .execute(),
  };

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_since',
      entities: [...BOOKSTORE_ENTITIES, SyncItem],
      controllers: [
        svcController('sync', SyncItem, { pagination: { strategy: 'since', since: { field: 'changedAt' } } }),
        svcController('books', Book, { pagination: { strategy: 'since', defaultLimit: 4 } }),
        svcController('uncounted', Book, { pagination: { strategy: 'since', count: false } }),
      ],
    });
    await t.dataSource
      .getRepository(Book)
      .save(Array.from({ length: 10 }, (_, i) => ({ title: `Book ${i}`, pages: i })));
  });
  afterAll(() => t.close());
  beforeEach(() => t.dataSource.getRepository(SyncItem).clear());

  it('pages by (updatedAt, id) ascending, with nextSince, total and offset 0', async () => {
    const seen: number[] = [];
    let page = await poll('/books');
    expect(page).toMatchObject({ limit: 4, offset: 0, total: 10 });
    for (let guard = 0; guard < 10 && page.items.length > 0; guard++) {
      seen.push(...page.items.map((item) => item.id));
      expect(typeof page.meta.nextSince).toBe('string');
      page = await poll(`/books?since=${encodeURIComponent(page.meta.nextSince!)}`);
      expect(page.total).toBe(10);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(new Set(seen).size).toBe(10);
  });

  it('follows pagination.count: total is null when counting is off, offset stays 0', async () => {
    const page = await poll('/uncounted?limit=3');
    expect(page).toMatchObject({ limit: 3, offset: 0, total: null });
    expect(page.items).toHaveLength(3);
  });

  it('echoes its own since on a caught-up poll, and advances nextSince on a partial page', async () => {
    await write.insert('a', 1);
    await write.insert('b', 2);
    const first = await poll('/sync?limit=5');
    expect(first.items.map((item) => item.label)).toEqual(['a', 'b']);
    const token = first.meta.nextSince!;
    expect(token).toMatch(/\|\d+$/);
    const caughtUp = await poll(`/sync?since=${encodeURIComponent(token)}`);
    expect(caughtUp.items).toEqual([]);
    expect(caughtUp.meta.nextSince).toBe(token);
    await write.insert('c', 3);
    const next = await poll(`/sync?since=${encodeURIComponent(token)}`);
    expect(next.items.map((item) => item.label)).toEqual(['c']);
    expect(next.meta.nextSince).not.toBe(token);
  });

  it('separates rows a millisecond cannot tell apart (microseconds on PostgreSQL and MariaDB)', async () => {
    for (let i = 0; i < 6; i++) await write.insert(`r${i}`, 10 + i);
    const labels: string[] = [];
    let token: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const page = await poll(`/sync?limit=1${token ? `&since=${encodeURIComponent(token)}` : ''}`);
      if (page.items.length === 0) break;
      labels.push(...page.items.map((item) => item.label));
      token = page.meta.nextSince!;
    }
    expect(labels).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('takes a token a client builds from a row it knows (ISO value|id)', async () => {
    for (let i = 0; i < 3; i++) await write.insert(`k${i}`, 1000 * (i + 1) * (db.name === 'sqlite' ? 1 : 1000));
    const all = await poll('/sync');
    const [first] = all.items;
    const after = await poll(`/sync?since=${encodeURIComponent(`${first!.changedAt}|${first!.id}`)}`);
    expect(after.items.map((item) => item.label)).toEqual(['k1', 'k2']);
    const programmatic = createSvc({ infrastructure: typeorm({ dataSource: t.dataSource }) }).createCrud<SyncItem>(
      SyncItem,
      { pagination: { strategy: 'since', since: { field: 'changedAt' } } },
    );
    const viaService = await programmatic.findMany({ since: all.meta.nextSince! });
    expect(viaService.items).toEqual([]);
    expect(viaService.meta?.['nextSince']).toBe(all.meta.nextSince);
  });

  it('serves since as per-call settings, with the same checks as at boot', async () => {
    const svc = createSvc({ infrastructure: typeorm({ dataSource: t.dataSource }) });
    const since = { settings: { pagination: { strategy: 'since' as const, defaultLimit: 3 } } };
    const books = await svc.createCrud<Book>(Book, {}).findMany({}, since);
    expect(books.items).toHaveLength(3);
    expect(books.meta?.['nextSince']).toMatch(/\|3$/);
    const refused = await svc
      .createCrud<Author>(Author, {})
      .findMany({}, since)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SVC_CONFIG_INVALID' });
  });

  it('refuses sort and offset (SVC_QUERY_UNSUPPORTED_PARAM) and a malformed since (SVC_QUERY_INVALID)', async () => {
    const sort = await request(t.server).get('/sync?sort=label').expect(400);
    expect(sort.body).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', errors: [{ param: 'sort' }] });
    const offset = await request(t.server).get('/sync?offset=3').expect(400);
    expect(offset.body).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', errors: [{ param: 'offset' }] });
    for (const bad of ['nobar', 'yesterday|1', '2026-11-23 25:00:00|1', '2026-11-23T12:00:00Z|x', '|']) {
      const response = await request(t.server)
        .get(`/sync?since=${encodeURIComponent(bad)}`)
        .expect(400);
      expect(response.body).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'since' }] });
    }
  });

  it('pages exactly once while rows are inserted and updated between polls, many sharing a timestamp', async () => {
    let seed = 20261123;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const versions = new Map<number, number>();
    const served = new Set<string>();
    const latestServed = new Map<number, number>();
    let token: string | undefined;
    let tick = 100;
    let lastKey: [string, number] | undefined;
    const pollOnce = async (): Promise<boolean> => {
      const page = await poll(`/sync?limit=${1 + random(6)}${token ? `&since=${encodeURIComponent(token)}` : ''}`);
      for (const item of page.items) {
        const version = `${item.id}@${item.version}`;
        expect(served.has(version)).toBe(false);
        served.add(version);
        latestServed.set(item.id, item.version);
      }
      if (page.items.length > 0) {
        const key = page.meta.nextSince!;
        const [value, id] = [key.slice(0, key.lastIndexOf('|')), Number(key.slice(key.lastIndexOf('|') + 1))];
        if (lastKey) expect(value > lastKey[0] || (value === lastKey[0] && id > lastKey[1])).toBe(true);
        lastKey = [value, id];
      }
      token = page.meta.nextSince ?? token;
      return page.items.length > 0;
    };
    for (let round = 0; round < 25; round++) {
      // One timestamp for the whole round: many rows share it, and pages split the group.
      tick += 1 + random(3);
      for (let n = random(7); n > 0; n--) {
        const inserted = await write.insert(`round ${round}`, tick);
        const id = Number((inserted.identifiers[0] as { id: number }).id);
        versions.set(id, 1);
      }
      const ids = [...versions.keys()];
      for (let n = random(6); n > 0 && ids.length > 0; n--) {
        const id = ids[random(ids.length)]!;
        versions.set(id, versions.get(id)! + 1);
        await write.update(id, versions.get(id)!, tick);
      }
      // Sometimes catch up, sometimes stop partway: the next round's writes land behind or ahead of the boundary.
      for (let polls = random(4); polls > 0; polls--) if (!(await pollOnce())) break;
    }
    while (await pollOnce());
    expect(latestServed).toEqual(versions);
  });
});

describe('since bootstrap errors', () => {
  const boot = (entity: Function, config: object) =>
    bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_since_boot',
      entities: [...BOOKSTORE_ENTITIES, SyncItem],
      controllers: [svcController('x', entity, { pagination: { strategy: 'since', ...config } })],
    });

  it('refuses a missing since column, naming it', async () => {
    const error = await boot(Author, {});
    expect(error.message).toContain("'updatedAt'");
    expect(error.message).toContain('pagination.since.field');
  });

  it('refuses a number column, a nullable column, and a field off the allowlists', async () => {
    expect((await boot(Book, { since: { field: 'pages' } })).message).toContain('integer');
    expect((await boot(SyncItem, { since: { field: 'note' } })).message).toContain('nullable');
    const offList = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_since_boot',
      entities: [...BOOKSTORE_ENTITIES, SyncItem],
      controllers: [
        svcController('x', SyncItem, {
          pagination: { strategy: 'since', since: { field: 'changedAt' } },
          filter: { fields: ['label', 'id'] },
        }),
      ],
    });
    expect(offList.message).toContain('filter.fields');
  });
});
