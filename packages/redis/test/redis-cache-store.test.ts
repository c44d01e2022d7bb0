/**
 * The Redis result-cache store on its own, as two instances sharing one Redis see it: entries round-trip as JSON with
 * a TTL, an invalidation on one instance orphans the other's entries in one command, and a read that began before a
 * write on either instance never stores its result. Runs when SVC_TEST_REDIS_URL is set.
 */
import Redis from 'ioredis';
import { redisCacheStore, type RedisCacheStore } from '@svc/redis';
import { clearPrefix } from '../../../test/e2e/support/redis-instances';

const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] || undefined;
const describeWithRedis = REDIS_URL ? describe : describe.skip;
const COMMAND_TIMEOUT_MS = 5000;

describeWithRedis('redisCacheStore (SVC_TEST_REDIS_URL)', () => {
  const keyPrefix = `svc-test:store:${process.pid}:${Date.now().toString(36)}:`;
  let one: RedisCacheStore;
  let two: RedisCacheStore;
  let admin: Redis;
  let twoClient: Redis;
  /**
   * Resolves once the store answers from Redis: connected, and past the recovery a store runs when its connection
   * comes up. A fixed wait is not enough on a busy machine, where connecting can outlast it.
   */
  const ready = async (store: RedisCacheStore) => {
    const until = Date.now() + 10_000;
    for (;;) {
      await store.get('Warmup|x');
      await store.set('Warmup|x', { warm: true }, 5);
      if ((await store.get('Warmup|x')) !== undefined) return;
      if (Date.now() > until) throw new Error('the store did not reach Redis within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    admin = new Redis(REDIS_URL!);
    // A command timeout far above the default: on a machine busy with other suites, a 250 ms one can lapse and the
    // store rightly degrade, which is not what these tests are about (the fault suites are).
    one = redisCacheStore({ url: REDIS_URL! }, { keyPrefix, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    // The other instance brings its own client: both forms work alike.
    twoClient = new Redis(REDIS_URL!, { enableOfflineQueue: false });
    two = redisCacheStore({ client: twoClient }, { keyPrefix, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    await Promise.all([ready(one), ready(two)]);
  });
  afterAll(async () => {
    await one.close();
    await clearPrefix(REDIS_URL!, keyPrefix);
    admin.disconnect();
    await two.close();
    twoClient.disconnect();
  });

  it('keeps an entry for its TTL, shared between instances', async () => {
    expect(await one.get('Book|findOne|1|null|')).toBeUndefined();
    await one.set('Book|findOne|1|null|', { response: { status: 200, body: { id: 1 } } }, 0.3);
    expect(await two.get('Book|findOne|1|null|')).toEqual({ response: { status: 200, body: { id: 1 } } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await two.get('Book|findOne|1|null|')).toBeUndefined();
  });

  it('orphans every entry of an entity with one INCR, on every instance', async () => {
    for (const key of ['Tag|findOne|1|null|', 'Tag|findMany|null|null|']) {
      await one.get(key);
      await one.set(key, { n: 1 }, 60);
    }
    await one.get('Other|findOne|1|null|');
    await one.set('Other|findOne|1|null|', { n: 2 }, 60);
    await two.invalidate('Tag');
    // Nothing was listed or deleted: the old entries are still there, under a generation no one reads any more.
    expect(await admin.exists(`${keyPrefix}cache:{Tag}:0|Tag|findOne|1|null|`)).toBe(1);
    expect(await one.get('Tag|findOne|1|null|')).toBeUndefined();
    expect(await one.get('Tag|findMany|null|null|')).toBeUndefined();
    expect(await two.get('Other|findOne|1|null|')).toEqual({ n: 2 });
    expect(await admin.get(`${keyPrefix}cache:{Tag}:generation`)).toBe('1');
  });

  it('does not store a read that a write on another instance overtook', async () => {
    const key = 'Note|findOne|7|null|';
    expect(await one.get(key)).toBeUndefined(); // the read begins
    await two.invalidate('Note'); // a write commits on the other instance
    await one.set(key, { stale: true }, 60); // the read, which may have seen the old row, ends
    expect(await two.get(key)).toBeUndefined();
    expect(await one.get(key)).toBeUndefined();
    await one.set(key, { fresh: true }, 60);
    expect(await two.get(key)).toEqual({ fresh: true });
  });

  it('does not store either of two reads of one key when a write came between them', async () => {
    const key = 'Note|findMany|null|null|';
    await two.invalidate('Note');
    expect(await one.get(key)).toBeUndefined(); // read 1 begins
    await two.invalidate('Note');
    expect(await one.get(key)).toBeUndefined(); // read 2 begins, after the write
    await one.set(key, { read: 2 }, 60);
    await one.set(key, { read: 1 }, 60);
    expect(await two.get(key)).toBeUndefined();
  });

  it('skips a store with no miss before it', async () => {
    await one.set('Lone|findOne|1|null|', { n: 1 }, 60);
    expect(await two.get('Lone|findOne|1|null|')).toBeUndefined();
  });

  it('reads as a miss, never an error, when Redis cannot be reached; and reports it once', async () => {
    const errors: Error[] = [];
    const dead = redisCacheStore({ url: 'redis://127.0.0.1:1' }, { onError: (error) => errors.push(error) });
    try {
      const start = Date.now();
      for (let i = 0; i < 5; i++) {
        expect(await dead.get('Book|findOne|1|null|')).toBeUndefined();
        await dead.set('Book|findOne|1|null|', { n: 1 }, 60);
        await expect(dead.invalidate('Book')).rejects.toThrow();
      }
      expect(Date.now() - start).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toMatch(/^Svc Redis: the result cache cannot reach Redis .*reads are served uncached/);
    } finally {
      await dead.close();
    }
  });

  it('says when it can serve: at once when connected, false after its wait when Redis cannot be reached', async () => {
    expect(await one.ready()).toBe(true);
    const fresh = redisCacheStore({ url: REDIS_URL! }, { keyPrefix, commandTimeoutMs: COMMAND_TIMEOUT_MS });
    const dead = redisCacheStore({ url: 'redis://127.0.0.1:1' }, { onError: () => undefined });
    try {
      // A store just made is still connecting: ready() waits for it, so its first read already reaches Redis.
      expect(await fresh.ready(10_000)).toBe(true);
      expect(await fresh.get('Fresh|findOne|1|null|')).toBeUndefined();
      await fresh.set('Fresh|findOne|1|null|', { n: 1 }, 5);
      expect(await two.get('Fresh|findOne|1|null|')).toEqual({ n: 1 });
      const start = Date.now();
      expect(await dead.ready(300)).toBe(false);
      expect(Date.now() - start).toBeGreaterThanOrEqual(250);
    } finally {
      await fresh.close();
      await dead.close();
    }
  });

  it('stores again once the reads that straddled a write are done', async () => {
    const key = 'Note|findOne|8|null|';
    expect(await one.get(key)).toBeUndefined();
    await two.invalidate('Note');
    await one.set(key, { stale: true }, 60);
    expect(await one.get(key)).toBeUndefined();
    await one.set(key, { fresh: true }, 60);
    expect(await two.get(key)).toEqual({ fresh: true });
  });

  it('refuses options it cannot use, naming them', () => {
    expect(() => redisCacheStore({ url: '' })).toThrow(/pass \{ url/);
    expect(() => redisCacheStore({ url: REDIS_URL! }, { commandTimeoutMs: 0 })).toThrow(
      /commandTimeoutMs must be a positive integer/,
    );
  });
});
