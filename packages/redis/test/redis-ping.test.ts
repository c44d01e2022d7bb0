/**
 * `ping()` of the result-cache store and of the event log, what a health check asks: true while Redis answers, false
 * at once while it cannot be reached, false within the command timeout while it takes no commands, and true again
 * when it does; never a throw. The unreachable port needs no Redis; the rest runs when SVC_TEST_REDIS_URL is set (and
 * starts a Redis server of its own to pause).
 */
import Redis from 'ioredis';
import { redisCacheStore, redisRealtime, type RedisCacheStore, type RedisEventLog } from '@svc/redis';
import { eventually, freePort, OwnRedisServer } from '../../../test/e2e/support/redis-instances';

const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] || undefined;
const describeWithRedis = REDIS_URL ? describe : describe.skip;
const quiet = { onError: () => undefined, onRecover: () => undefined };

/** Runs `work`, answering its result and how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/** A log with a transport listening, as `sse({ log })` makes it. */
function listening(log: RedisEventLog): RedisEventLog {
  log.listen(() => undefined);
  return log;
}

describe('ping() with nothing listening on the Redis port', () => {
  let url: string;
  const made: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    url = `redis://127.0.0.1:${await freePort()}`;
  });
  afterEach(async () => {
    await Promise.all(made.splice(0).map((part) => part.close()));
  });

  it('answers false at once for the result-cache store, without throwing', async () => {
    const store = redisCacheStore({ url }, quiet);
    made.push(store);
    const [up, took] = await timed(() => store.ping());
    expect(up).toBe(false);
    expect(took).toBeLessThan(100);
  });

  it('answers false at once for the event log, listening or not', async () => {
    const idle = redisRealtime({ url }, quiet);
    const reading = listening(redisRealtime({ url }, quiet));
    made.push(idle, reading);
    for (const log of [idle, reading]) {
      const [up, took] = await timed(() => log.ping());
      expect(up).toBe(false);
      expect(took).toBeLessThan(100);
    }
  });
});

describeWithRedis('ping() against a running Redis (SVC_TEST_REDIS_URL)', () => {
  const keyPrefix = `svc-test:ping:${process.pid}:${Date.now().toString(36)}:`;
  const made: { close(): Promise<void> }[] = [];
  const clients: Redis[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((part) => part.close()));
    for (const client of clients.splice(0)) client.disconnect();
  });

  it('answers true for the store and the log once connected, on their own connection or a client passed in', async () => {
    const client = new Redis(REDIS_URL!, { enableOfflineQueue: false });
    clients.push(client);
    const store = redisCacheStore({ url: REDIS_URL! }, { keyPrefix, ...quiet });
    const storeOnClient = redisCacheStore({ client }, { keyPrefix, ...quiet });
    const log = listening(redisRealtime({ url: REDIS_URL! }, { keyPrefix, blockMs: 500, ...quiet }));
    const logOnClient = redisRealtime({ client }, { keyPrefix, ...quiet });
    made.push(store, storeOnClient, log, logOnClient);
    expect(await store.ready(10_000)).toBe(true);
    for (const part of [store, storeOnClient, log, logOnClient])
      await eventually(() => part.ping(), 'ping() to answer true', 10_000);
  });

  describe('when Redis takes no commands for a while (CLIENT PAUSE on a server of its own)', () => {
    const COMMAND_TIMEOUT_MS = 200;
    let server: OwnRedisServer;
    let admin: Redis;
    beforeAll(async () => {
      server = new OwnRedisServer(await freePort());
      await server.start();
      admin = new Redis(server.url);
    }, 30_000);
    afterAll(async () => {
      admin?.disconnect();
      await server?.stop();
    });

    it('answers false within the command timeout, then true again once Redis answers', async () => {
      const options = { commandTimeoutMs: COMMAND_TIMEOUT_MS, blockMs: 500, ...quiet };
      const store: RedisCacheStore = redisCacheStore({ url: server.url }, options);
      const log = listening(redisRealtime({ url: server.url }, options));
      made.push(store, log);
      for (const part of [store, log]) await eventually(() => part.ping(), 'ping() to answer true', 10_000);

      await admin.client('PAUSE', 1500, 'ALL');
      for (const part of [store, log]) {
        const [up, took] = await timed(() => part.ping());
        expect(up).toBe(false);
        // The command timeout, with room for a busy machine; never the length of the pause.
        expect(took).toBeLessThan(COMMAND_TIMEOUT_MS + 400);
      }
      for (const part of [store, log]) await eventually(() => part.ping(), 'ping() to answer true again', 10_000);
    });
  });
});
