/**
 * What scale-out over Redis costs and delivers, with two app instances in child processes (test/e2e/support/
 * redis-instance.ts) on one database (PostgreSQL with SVC_TEST_POSTGRES_URL, else a shared SQLite file) and the Redis
 * at SVC_TEST_REDIS_URL:
 * - the delay from a write's response on instance A to its event's delivery to an SSE subscriber on instance B, p50
 *   and p99 over BENCH_WRITES (default 500) sequential writes;
 * - req/s of one cached findOne at BENCH_CONNECTIONS (default 10) for BENCH_DURATION seconds (default 5), with the
 *   Redis store, the in-memory store, and the cache off.
 * Run it on a quiet machine:
 * `SVC_TEST_REDIS_URL=redis://127.0.0.1:6379 pnpm exec ts-node --transpile-only -r tsconfig-paths/register bench/redis-scale-out.ts`.
 */
import autocannon from 'autocannon';
import { positiveInt } from './bench-env';
import {
  call,
  clearPrefix,
  eventually,
  openSharedDatabase,
  startInstance,
  subscribe,
  uniquePrefix,
  type SharedDatabase,
} from '../test/e2e/support/redis-instances';

const WRITES = positiveInt('BENCH_WRITES', 500);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const DURATION = positiveInt('BENCH_DURATION', 5);
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Write on A, delivery on B: the delay from A's response to B's subscriber, per write. */
async function fanOutDelay(database: SharedDatabase, url: string): Promise<string> {
  const prefix = uniquePrefix('bench');
  const [a, b] = await Promise.all([startInstance(database, url, prefix), startInstance(database, url, prefix)]);
  try {
    const onB = await subscribe(b.base, 'bench');
    const delays: number[] = [];
    let early = 0;
    for (let i = 0; i < WRITES; i++) {
      const created = await call(a.base, 'POST', '/notes', 'bench', { title: `n${i}` });
      const answered = performance.now();
      const id = created.body['id'];
      await eventually(() => onB.events.some((event) => event.data.id === id), `event ${String(id)} on B`);
      const at = onB.events.find((event) => event.data.id === id)!.at;
      if (at < answered) early++;
      delays.push(Math.max(0, at - answered));
    }
    onB.close();
    delays.sort((x, y) => x - y);
    return [
      `write on A -> SSE delivery on B, ${WRITES} sequential writes (${database.name}):`,
      `  p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms, max ${delays.at(-1)!.toFixed(1)} ms` +
        ` (${early} delivered before A's response arrived, counted as 0)`,
    ].join('\n');
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await clearPrefix(url, prefix);
  }
}

/** req/s of one findOne served by one instance, per cache mode. */
async function cachedFindOne(database: SharedDatabase, url: string): Promise<string> {
  const rows = ['| cache store | findOne req/s | p99 ms |', '|:--|--:|--:|'];
  for (const mode of ['redis', 'memory', 'off']) {
    process.env['SVC_REDIS_TEST_CACHE'] = mode;
    const prefix = uniquePrefix('bench-cache');
    const instance = await startInstance(database, url, prefix);
    try {
      const author = await call(instance.base, 'POST', '/authors', 'bench', { name: `Bench ${mode}` });
      const path = `/authors/${String(author.body['id'])}`;
      await call(instance.base, 'GET', path, 'bench');
      const result = await autocannon({
        url: `${instance.base}${path}`,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      rows.push(`| ${mode} | ${Math.round(result.requests.average).toLocaleString('en-US')} | ${result.latency.p99} |`);
    } finally {
      await instance.stop();
      await clearPrefix(url, prefix);
    }
  }
  delete process.env['SVC_REDIS_TEST_CACHE'];
  return [`cached findOne, ${CONNECTIONS} connections x ${DURATION} s, one instance (${database.name}):`, ...rows].join(
    '\n',
  );
}

async function main(): Promise<void> {
  if (!REDIS_URL) throw new Error('Set SVC_TEST_REDIS_URL (a Redis this benchmark may write keys to).');
  const database = await openSharedDatabase('bench_redis_scale_out');
  try {
    console.log(`Svc Redis scale-out benchmark  ${new Date().toISOString()}`);
    console.log(await fanOutDelay(database, REDIS_URL));
    console.log(await cachedFindOne(database, REDIS_URL));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
