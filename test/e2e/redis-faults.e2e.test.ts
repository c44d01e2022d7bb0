/**
 * Redis failing never fails a request: with nothing listening on Redis's port, or with a Redis server (the suite's
 * own) stopped under two running instances, reads answer uncached, writes answer within a bounded delay, events reach
 * the publishing instance's own subscribers, each outage is reported once per part, and when the server comes back
 * the cache and the fan-out between instances recover by themselves. Runs when SVC_TEST_REDIS_URL is set.
 */
import Redis from 'ioredis';
import {
  call,
  eventually,
  freePort,
  openSharedDatabase,
  OwnRedisServer,
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

/** A write's response comes within this bound while Redis is down (a few command timeouts, with room for a busy box). */
const WRITE_BOUND_MS = 1500;

/** Runs `work`, answering how long it took. */
const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
};

describeWithRedis('Redis faults (SVC_TEST_REDIS_URL)', () => {
  let database: SharedDatabase;
  const open: Subscriber[] = [];
  beforeAll(async () => {
    database = await openSharedDatabase('e2e_redis_faults');
  });
  afterEach(() => {
    for (const made of open.splice(0)) made.close();
  });
  afterAll(() => database?.close());

  describe('with nothing listening on the Redis port', () => {
    let lone: Instance;
    beforeAll(async () => {
      lone = await startInstance(database, `redis://127.0.0.1:${await freePort()}`, uniquePrefix('faults-dead'));
    }, 90_000);
    afterAll(() => lone?.stop());

    it('serves reads uncached and writes promptly, delivers events locally, and reports the outage once per part', async () => {
      const local = await subscribe(lone.base, 'acme');
      open.push(local);
      const [created, took] = await timed(() => call(lone.base, 'POST', '/notes', 'acme', { title: 'offline' }));
      expect(created.status).toBe(201);
      expect(took).toBeLessThan(WRITE_BOUND_MS);
      const id = created.body['id'] as number;
      for (let i = 0; i < 5; i++) {
        const [patched, patchTook] = await timed(() =>
          call(lone.base, 'PATCH', `/notes/${id}`, 'acme', { version: i + 1 }),
        );
        expect(patched.status).toBe(200);
        expect(patchTook).toBeLessThan(WRITE_BOUND_MS);
        expect((await call(lone.base, 'GET', `/notes/${id}`, 'acme')).body['version']).toBe(i + 1);
        expect((await call(lone.base, 'GET', '/notes?sort=id', 'acme')).status).toBe(200);
      }
      // Uncached: a change behind the app's back shows at once.
      await database.dataSource.getRepository(RdNote).update(id, { title: 'behind' });
      expect((await call(lone.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('behind');
      await eventually(() => local.events.length === 6, 'the local events');
      expect(local.events.map((event) => event.type)).toEqual(['created', ...Array(5).fill('patched')]);
      expect(local.events[0]!.id).toMatch(/^local\./);
      expect(lone.errors('cache')).toHaveLength(1);
      expect(lone.errors('realtime')).toHaveLength(1);
      expect(lone.errors('cache')[0]).toMatch(/reads are served uncached/);
    });
  });

  describe('with a Redis server stopped and started again under two instances', () => {
    let server: OwnRedisServer;
    let a: Instance;
    let b: Instance;
    beforeAll(async () => {
      server = new OwnRedisServer(await freePort());
      await server.start();
      const prefix = uniquePrefix('faults-restart');
      [a, b] = await Promise.all([
        startInstance(database, server.url, prefix),
        startInstance(database, server.url, prefix),
      ]);
    }, 90_000);
    // A test that failed while its server was stopped leaves it running for the next, which would fail for that alone.
    afterEach(async () => {
      if (server && !server.running) await server.start();
    });
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await server?.stop();
    });

    /** Writes on A until B's subscriber hears one (the fan-out is back), within a bound. */
    const fanOutWorks = async (onB: Subscriber, id: number) => {
      let version = 100;
      await eventually(
        async () => {
          await call(a.base, 'PATCH', `/notes/${id}`, 'acme', { version: ++version });
          await pause(100);
          return onB.events.some((event) => event.data.item?.['version'] === version);
        },
        'an event from A on B',
        15_000,
      );
    };

    it('degrades while Redis is down and recovers by itself when it is back', async () => {
      const onA = await subscribe(a.base, 'acme');
      const onB = await subscribe(b.base, 'acme');
      open.push(onA, onB);
      const id = (await call(a.base, 'POST', '/notes', 'acme', { title: 'before' })).body['id'] as number;
      await eventually(() => onB.events.length === 1, 'the event on B before the outage');

      // The reports of this outage are the ones after the stop: on a loaded machine a command can time out before it
      // (a stalled event loop), which is an outage of its own, reported and recovered before this one.
      const before = new Map(
        [a, b].map((made) => [made, { cache: made.errors('cache').length, realtime: made.errors('realtime').length }]),
      );
      await server.stop();
      const [patched, took] = await timed(() => call(a.base, 'PATCH', `/notes/${id}`, 'acme', { title: 'during' }));
      expect(patched.status).toBe(200);
      expect(took).toBeLessThan(WRITE_BOUND_MS);
      // B reads uncached, so it sees A's write although the invalidation never reached Redis.
      expect((await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('during');
      // The event stays on A: A's subscriber gets it, B's does not.
      await eventually(() => onA.events.length === 2, "the event on A's own subscriber");
      await pause(300);
      expect(onB.events).toHaveLength(1);
      for (let i = 0; i < 5; i++) {
        await call(a.base, 'PATCH', `/notes/${id}`, 'acme', { version: i });
        await call(b.base, 'GET', `/notes/${id}`, 'acme');
      }
      // A report comes when the client's reconnect attempt fails, which a busy machine can delay by seconds; then
      // exactly one per part and instance, whatever else failed meanwhile.
      // This outage's reports (the array, so that a failure shows them).
      const reported = (made: Instance, part: 'cache' | 'realtime') => made.errors(part).slice(before.get(made)![part]);
      await eventually(
        () => [a, b].every((made) => reported(made, 'cache').length > 0 && reported(made, 'realtime').length > 0),
        'a report per part per instance',
        15_000,
      );
      for (const made of [a, b]) {
        expect(reported(made, 'cache')).toHaveLength(1);
        expect(reported(made, 'realtime')).toHaveLength(1);
      }

      await server.start();
      await fanOutWorks(onB, id);
      // A kept the outage's events to itself; once back, it says so in the stream, and B's subscriber is told to read
      // the current state again, ahead of the events after the gap. A's own subscriber had them all: no reset there.
      const gap = onB.events.findIndex((event) => event.type === 'reset');
      expect(gap).toBeGreaterThan(0);
      expect(onB.events[gap]!.data).toMatchObject({ reason: expect.stringContaining('another instance') });
      expect(onB.events.slice(gap + 1).some((event) => event.type === 'patched')).toBe(true);
      expect(onA.events.some((event) => event.type === 'reset')).toBe(false);
      // The gap is a place to resume from: after it come the events, not another reset.
      const afterGap = await subscribe(b.base, 'acme', { lastEventId: onB.events[gap]!.id });
      open.push(afterGap);
      await eventually(() => afterGap.events.length >= 1, 'the replay after the gap');
      expect(afterGap.events[0]!.type).toBe('patched');
      // The cache works again across instances: B caches, A's write drops it.
      await eventually(
        async () => {
          await call(b.base, 'GET', `/notes/${id}`, 'acme');
          await database.dataSource.getRepository(RdNote).update(id, { title: 'behind' });
          const cached = (await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title'] !== 'behind';
          await call(a.base, 'PATCH', `/notes/${id}`, 'acme', { title: 'after' });
          return cached;
        },
        'B serving from the cache again',
        15_000,
      );
      expect((await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('after');
      // The restarted server kept no stream: resuming from an id of the old one is a reset, not a wrong replay.
      const resumed = await subscribe(b.base, 'acme', { lastEventId: onB.events[0]!.id });
      open.push(resumed);
      await eventually(() => resumed.events.length >= 1, 'the reset');
      expect(resumed.events[0]!.type).toBe('reset');
      // Still one report for this outage, and the recovery said so. Counted from the stop, as above: on a busy
      // machine a command can time out at boot, an outage of its own, reported and recovered before this one.
      for (const made of [a, b]) {
        expect(reported(made, 'cache')).toHaveLength(1);
        expect(reported(made, 'realtime')).toHaveLength(1);
        expect(made.stderr.some((line) => line.startsWith('redis-recover: realtime:'))).toBe(true);
      }
    }, 90_000);

    it('answers promptly while Redis is too slow to answer, without delivering an event twice after', async () => {
      const onA = await subscribe(a.base, 'acme');
      const onB = await subscribe(b.base, 'acme');
      open.push(onA, onB);
      const id = (await call(a.base, 'POST', '/notes', 'acme', { title: 'before the stall' })).body['id'] as number;
      await eventually(() => onB.events.length === 1, 'the event on B before the stall');
      const admin = new Redis(server.url);
      try {
        // Every client's commands wait 1.5 s: longer than the instances' command timeout.
        await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
        const [patched, took] = await timed(() => call(a.base, 'PATCH', `/notes/${id}`, 'acme', { title: 'stalled' }));
        expect(patched.status).toBe(200);
        expect(took).toBeLessThan(WRITE_BOUND_MS);
        expect((await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('stalled');
        await eventually(() => onA.events.length === 2, "the stalled write's event on A");
      } finally {
        admin.disconnect();
      }
      await fanOutWorks(onB, id);
      // The XADD that timed out went through once Redis woke: A had delivered that event already, and does not again.
      const stalled = onA.events.filter(
        (event) => event.data.changed?.includes('title') && event.data.item?.['title'] === 'stalled',
      );
      expect(stalled).toHaveLength(1);
      expect(new Set(onA.events.map((event) => event.id)).size).toBe(onA.events.length);
      // And the cache recovers on B.
      await eventually(
        async () => {
          await call(b.base, 'GET', `/notes/${id}`, 'acme');
          await database.dataSource.getRepository(RdNote).update(id, { title: 'behind again' });
          const cached = (await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title'] !== 'behind again';
          await call(a.base, 'PATCH', `/notes/${id}`, 'acme', { title: 'awake' });
          return cached;
        },
        'B serving from the cache again',
        15_000,
      );
      expect((await call(b.base, 'GET', `/notes/${id}`, 'acme')).body['title']).toBe('awake');
    }, 60_000);
  });
});
