/**
 * The example's readiness check, GET /health: the database through TypeORM and, when the app shares its cache and
 * events through Redis, Redis as those Svc parts see it. Over a Redis server of the suite's own, stopped and started
 * under the running app: /health answers 503 naming Redis down within a bound while the API keeps answering, and 200
 * again once Redis is back. The Redis part runs when SVC_TEST_REDIS_URL is set, like the other Redis suites.
 */
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { eventually, freePort, OwnRedisServer, REDIS_URL } from '../../../test/e2e/support/redis-instances';
import { AppModule } from '../src/app.module';

const describeWithRedis = REDIS_URL ? describe : describe.skip;

/**
 * /health answers within this, whatever is down: the database has 1 s and Redis one command timeout (250 ms), with
 * room for a busy machine.
 */
const HEALTH_BOUND_MS = 2000;

interface Listening {
  readonly app: INestApplication;
  readonly base: string;
}

/** The example on in-memory SQLite, sharing through the Redis at `redisUrl` when given. */
async function listen(redisUrl?: string): Promise<Listening> {
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ databaseUrl: ':memory:', redisUrl })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

interface HealthAnswer {
  readonly status: number;
  readonly cacheControl: string | null;
  readonly body: {
    status: string;
    info?: Record<string, Record<string, unknown>>;
    error?: Record<string, Record<string, unknown>>;
    details: Record<string, Record<string, unknown>>;
  };
  /** How long it took to answer, in ms. */
  readonly took: number;
}

/** GET /health, anonymously (no token), as a load balancer asks it. */
async function health(base: string): Promise<HealthAnswer> {
  const start = performance.now();
  const response = await fetch(`${base}/health`);
  const body = (await response.json()) as HealthAnswer['body'];
  return {
    status: response.status,
    cacheControl: response.headers.get('cache-control'),
    body,
    took: performance.now() - start,
  };
}

describe('GET /health', () => {
  describe('without a Redis URL', () => {
    let example: Listening;
    beforeAll(async () => {
      example = await listen();
    });
    afterAll(async () => {
      await example?.app.close();
    });

    it('answers 200 with the database up, never cached, and no Redis entry', async () => {
      const answer = await health(example.base);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
      expect(Object.keys(answer.body.details)).toEqual(['database']);
      expect(answer.cacheControl).toMatch(/no-store/);
    });
  });

  describeWithRedis('over a Redis server of its own (SVC_TEST_REDIS_URL)', () => {
    let server: OwnRedisServer;
    let example: Listening;
    let reported: jest.SpyInstance[];

    beforeAll(async () => {
      server = new OwnRedisServer(await freePort());
      await server.start();
      example = await listen(server.url);
      // The Redis parts report an outage once, and its end, on the console: checked below, kept out of the output.
      reported = [
        jest.spyOn(console, 'error').mockImplementation(() => undefined),
        jest.spyOn(console, 'info').mockImplementation(() => undefined),
      ];
    }, 30_000);
    afterAll(async () => {
      await example?.app.close();
      await server?.stop();
      for (const spy of reported ?? []) spy.mockRestore();
    });

    it('answers 200 with the database and Redis up, each Redis part named', async () => {
      // The event log's reading connection comes up as its loop starts: ready within moments of the boot.
      await eventually(async () => (await health(example.base)).status === 200, '/health to answer 200', 10_000);
      const answer = await health(example.base);
      expect(answer.body).toMatchObject({
        status: 'ok',
        details: { database: { status: 'up' }, redis: { status: 'up', cache: 'up', events: 'up' } },
      });
    });

    it('answers 503 naming Redis down and the database up, promptly, while the API keeps answering', async () => {
      // Only what this outage reports counts: on a busy machine a connection's ready check at boot can time out
      // (ioredis gives it the 250 ms command timeout), which is an outage and its end of their own, reported before.
      const before = reported[0]!.mock.calls.length;
      await server.stop();
      for (let probe = 0; probe < 3; probe++) {
        const answer = await health(example.base);
        expect(answer.status).toBe(503);
        expect(answer.took).toBeLessThan(HEALTH_BOUND_MS);
        expect(answer.body).toMatchObject({
          status: 'error',
          info: { database: { status: 'up' } },
          error: { redis: { status: 'down', cache: 'down', events: 'down' } },
          details: { database: { status: 'up' }, redis: { status: 'down' } },
        });
        expect(answer.body.error!['redis']!['message']).toMatch(/reads are served uncached/);
        const books = await fetch(`${example.base}/books?limit=2`);
        expect(books.status).toBe(200);
        expect(((await books.json()) as { items: unknown[] }).items).toHaveLength(2);
      }
      // Probed three times, reported once per part (the result cache, realtime fan-out). A part reports when its
      // client's reconnect fails, which a busy machine can delay by seconds: wait for both, then count.
      const outagesOf = (part: string) =>
        (reported[0]!.mock.calls.slice(before) as unknown[][])
          .map(([message]) => String(message))
          .filter((m) => m.startsWith(part));
      await eventually(
        () =>
          outagesOf('Svc Redis: the result cache').length > 0 && outagesOf('Svc Redis: realtime fan-out').length > 0,
        'a report from each Redis part',
        15_000,
      );
      expect(outagesOf('Svc Redis: the result cache')).toHaveLength(1);
      expect(outagesOf('Svc Redis: realtime fan-out')).toHaveLength(1);
    }, 30_000);

    it('answers 200 again once Redis is back, with no restart', async () => {
      await server.start();
      await eventually(async () => (await health(example.base)).status === 200, '/health to answer 200 again', 10_000);
      const answer = await health(example.base);
      expect(answer.body.details).toMatchObject({
        database: { status: 'up' },
        redis: { status: 'up', cache: 'up', events: 'up' },
      });
    });
  });
});
