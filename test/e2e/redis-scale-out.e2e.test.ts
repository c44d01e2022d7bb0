/**
 * Two app instances (child processes) on one database and one Redis behave as one: a write on A drops B's cached reads
 * (the entity's and those that include it), B's SSE subscribers hear A's writes (each admitted by its own scope on B),
 * a subscriber resumes on B from an id it got on A, and under a compressed soak no event is lost or duplicated and no
 * read after a write's response is stale. Runs when SVC_TEST_REDIS_URL is set, like the other database suites.
 */
import {
  call,
  clearPrefix,
  eventually,
  openSharedDatabase,
  pause,
  REDIS_URL,
  startInstance,
  subscribe,
  uniquePrefix,
  type Instance,
  type SharedDatabase,
  type Subscriber,
} from './support/redis-instances';
import { RdNote } from './support/redis-fixtures';

const describeWithRedis = REDIS_URL ? describe : describe.skip;

describeWithRedis('two app instances over one Redis (SVC_TEST_REDIS_URL)', () => {
  let database: SharedDatabase;
  let a: Instance;
  let b: Instance;
  const prefix = uniquePrefix('scale-out');
  const open: Subscriber[] = [];
  const subscriber = async (...args: Parameters<typeof subscribe>) => {
    const made = await subscribe(...args);
    open.push(made);
    return made;
  };

  beforeAll(async () => {
    database = await openSharedDatabase('e2e_redis_scale_out');
    [a, b] = await Promise.all([
      startInstance(database, REDIS_URL!, prefix),
      startInstance(database, REDIS_URL!, prefix),
    ]);
  }, 90_000);
  afterEach(() => {
    for (const made of open.splice(0)) made.close();
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await clearPrefix(REDIS_URL!, prefix);
  });

  it(`runs on ${process.env['SVC_TEST_POSTGRES_URL'] ? 'PostgreSQL' : 'a shared SQLite file'}`, () => {
    expect(database.name).toBe(process.env['SVC_TEST_POSTGRES_URL'] ? 'postgres' : 'sqlite');
  });

  it("drops B's cached findOne and findMany when A writes", async () => {
    const created = await call(a.base, 'POST', '/notes', 'acme', { title: 'first' });
    expect(created.status).toBe(201);
    const id = created.body['id'] as number;
    expect((await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('first');
    expect((await call(b.base, 'GET', '/notes?sort=id', 'acme')).body.items?.at(-1)?.['title']).toBe('first');
    // Changed behind the app's back: B still answers from the cache, so the reads above were cached.
    await database.dataSource.getRepository(RdNote).update(id, { title: 'behind' });
    expect((await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('first');
    expect((await call(b.base, 'GET', '/notes?sort=id', 'acme')).body.items?.at(-1)?.['title']).toBe('first');
    expect((await call(a.base, 'PATCH', `/notes/${id}`, 'acme', { title: 'second' })).status).toBe(200);
    expect((await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('second');
    expect((await call(b.base, 'GET', '/notes?sort=id', 'acme')).body.items?.at(-1)?.['title']).toBe('second');
  });

  it("drops B's cached reads that include an entity when A writes that entity", async () => {
    const author = await call(a.base, 'POST', '/authors', 'acme', { name: 'Ann' });
    const note = await call(a.base, 'POST', '/notes', 'acme', {
      title: 'with author',
      author: { id: author.body['id'] },
    });
    const path = `/notes/${note.body['id'] as number}?include=author`;
    expect((await call(b.base, 'GET', path, 'acme')).body['author']).toMatchObject({ name: 'Ann' });
    expect((await call(b.base, 'GET', `/authors/${author.body['id'] as number}`, 'acme')).body['name']).toBe('Ann');
    expect(
      (await call(a.base, 'PATCH', `/authors/${author.body['id'] as number}`, 'acme', { name: 'Anne' })).status,
    ).toBe(200);
    expect((await call(b.base, 'GET', path, 'acme')).body['author']).toMatchObject({ name: 'Anne' });
    expect((await call(b.base, 'GET', `/authors/${author.body['id'] as number}`, 'acme')).body['name']).toBe('Anne');
  });

  it("delivers A's write to B's subscribers, each admitted by its own scope on B", async () => {
    const [onB, otherTenantOnB, onA] = await Promise.all([
      subscriber(b.base, 'acme'),
      subscriber(b.base, 'globex'),
      subscriber(a.base, 'acme'),
    ]);
    const created = await call(a.base, 'POST', '/notes', 'acme', { title: 'heard on B' });
    await eventually(() => onB.events.length === 1 && onA.events.length === 1, 'the event on both instances');
    expect(onB.events[0]).toMatchObject({ type: 'created', data: { entity: 'RdNote', id: created.body['id'] } });
    expect(onB.events[0]!.data.item).toMatchObject({ title: 'heard on B' });
    // One id for one event, whichever instance serves the stream: the stream's.
    expect(onB.events[0]!.id).toBe(onA.events[0]!.id);
    expect(onB.events[0]!.id).toMatch(/^\d+-\d+$/);
    // The other tenant's subscriber on B never hears of acme's row, deleted or not.
    await call(a.base, 'DELETE', `/notes/${created.body['id'] as number}`, 'acme');
    await eventually(() => onB.events.length === 2, 'the delete on B');
    await pause(200);
    expect(otherTenantOnB.events).toEqual([]);
  });

  it('carries a JSON value shaped like its own type tags to B as written, and B lives on', async () => {
    const [onB, onA] = await Promise.all([subscriber(b.base, 'acme'), subscriber(a.base, 'acme')]);
    const meta = { '$svc:bigint': '1', nested: [{ '$svc:date': 'not a date' }] };
    const created = await call(a.base, 'POST', '/notes', 'acme', { title: 'tagged', meta });
    expect(created.status).toBe(201);
    await eventually(() => onB.events.length === 1 && onA.events.length === 1, 'the event on both instances');
    expect(onB.events[0]!.data.item).toMatchObject({ title: 'tagged', meta });
    expect(onA.events[0]!.data.item).toMatchObject({ meta });
    expect((await call(b.base, 'GET', `/notes/${created.body['id'] as number}`, 'acme')).body['meta']).toEqual(meta);
  });

  it('resumes on B from an id received on A, replaying what A published meanwhile', async () => {
    const onA = await subscriber(a.base, 'acme');
    await call(a.base, 'POST', '/notes', 'acme', { title: 'seen' });
    await eventually(() => onA.events.length === 1, 'the first event');
    onA.close();
    const titles = ['missed 1', 'missed 2', 'missed 3'];
    for (const title of titles) await call(a.base, 'POST', '/notes', 'acme', { title });
    await call(a.base, 'POST', '/notes', 'globex', { title: 'not yours' });
    const resumed = await subscriber(b.base, 'acme', { lastEventId: onA.events[0]!.id });
    await eventually(() => resumed.events.length === 3, 'the replay on B');
    expect(resumed.events.map((event) => event.data.item?.['title'])).toEqual(titles);
    // Then live, with no gap and nothing twice.
    await call(a.base, 'POST', '/notes', 'acme', { title: 'live' });
    await eventually(() => resumed.events.length === 4, 'the live event after the replay');
    await pause(200);
    expect(resumed.events.map((event) => event.data.item?.['title'])).toEqual([...titles, 'live']);
    expect(new Set(resumed.events.map((event) => event.id)).size).toBe(4);
  });

  it('answers a resume from an id the stream no longer holds with a reset', async () => {
    const resumed = await subscriber(b.base, 'acme', { lastEventId: '1-0' });
    await eventually(() => resumed.events.length === 1, 'the reset');
    expect(resumed.events[0]!.type).toBe('reset');
  });

  it('soak: 1,000 mixed writes across both instances, 20 subscribers: nothing lost or twice, no stale read', async () => {
    const tenant = 'soak';
    const subscribers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => subscriber(index % 2 === 0 ? a.base : b.base, tenant)),
    );
    // And one subscriber of another tenant per instance, which must hear none of it.
    const outsiders = await Promise.all([subscriber(a.base, 'outsider'), subscriber(b.base, 'outsider')]);
    /** Every event the writes published, in the order their responses came back, as `event:id:version`. */
    const published: string[] = [];
    let stale = 0;
    const WORKERS = 8;
    const WRITES = 1000;
    let started = 0;
    const worker = async (index: number) => {
      // Each worker owns its rows, so each row's versions only grow; the instance alternates per write.
      let row: number | undefined;
      let version = 0;
      let turn = index;
      while (started < WRITES) {
        started++;
        const [writer, reader] = turn++ % 2 === 0 ? [a, b] : [b, a];
        if (row === undefined) {
          const created = await call(writer.base, 'POST', '/notes', tenant, { title: `w${index}` });
          row = created.body['id'] as number;
          version = 0;
          published.push(`created:${row}:0`);
        } else if (version >= 4) {
          expect((await call(writer.base, 'DELETE', `/notes/${row}`, tenant)).status).toBe(204);
          published.push(`deleted:${row}:-`);
          expect((await call(reader.base, 'GET', `/notes/${row}`, tenant)).status).toBe(404);
          row = undefined;
          continue;
        } else {
          version++;
          const patched = await call(writer.base, 'PATCH', `/notes/${row}`, tenant, { version });
          expect(patched.status).toBe(200);
          published.push(`patched:${row}:${version}`);
        }
        // Read on the other instance, right after the response: never older than the write.
        const read = await call(reader.base, 'GET', `/notes/${row}`, tenant);
        if (read.body['version'] !== version) stale++;
        const list = await call(reader.base, 'GET', `/notes?filter[version][gte]=0&sort=-id&limit=100`, tenant);
        const listed = list.body.items?.find((item) => item['id'] === row);
        if (listed?.['version'] !== version) stale++;
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    expect(stale).toBe(0);
    await eventually(
      () => subscribers.every((made) => made.events.length >= published.length),
      'every event at every subscriber',
      30_000,
    );
    await pause(300);
    // No row of another tenant reaches an outsider (named, so a failure shows what came). A `reset` carries no row: it
    // tells a subscriber that fell behind on a loaded machine to read again, and says nothing of the writes.
    expect(
      outsiders.map((made) =>
        made.events.filter((event) => event.type !== 'reset').map((event) => `${event.type}:${event.id}`),
      ),
    ).toEqual([[], []]);
    const expected = [...published].sort();
    for (const made of subscribers) {
      const ids = made.events.map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      const received = made.events.map(
        (event) =>
          `${event.type}:${String(event.data.id)}:${event.type === 'deleted' ? '-' : String(event.data.item?.['version'])}`,
      );
      expect(received.sort()).toEqual(expected);
      // In one order for everyone: the stream's.
      expect(ids).toEqual(subscribers[0]!.events.map((event) => event.id));
    }
  }, 180_000);
});
