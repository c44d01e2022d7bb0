/**
 * What realtime costs and delivers: `create` (POST) and `patch` (PATCH by id) req/s at BENCH_CONNECTIONS (default 10)
 * with realtime off, on with no subscriber, and on with BENCH_SUBSCRIBERS (default 100) SSE subscribers; the events per
 * second those subscribers receive; and the delay from commit (the event's `occurredAt`) to delivery, p50 and p99.
 *
 * The server runs in a child process (bench/realtime-server.ts, SQLite file of BENCH_BOOKS books, or PostgreSQL with
 * BENCH_DATABASE_URL); the load generator and the subscribers (real `eventsource` clients) share this process. Run
 * it on a quiet machine: `pnpm exec ts-node --transpile-only -r tsconfig-paths/register bench/realtime.ts`.
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { positiveInt } from './bench-env';
import { seedBenchDatabase, sqliteBenchDatabase, type BenchDatabase } from './database';

const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const DURATION = positiveInt('BENCH_DURATION', 5);
const SUBSCRIBERS = positiveInt('BENCH_SUBSCRIBERS', 100);
const BOOKS = positiveInt('BENCH_BOOKS', 10_000);

interface Run {
  readonly label: string;
  readonly path: '/books' | '/live-books';
  readonly subscribers: number;
}

const RUNS: readonly Run[] = [
  { label: 'realtime off', path: '/books', subscribers: 0 },
  { label: 'realtime on, no subscriber', path: '/live-books', subscribers: 0 },
  { label: `realtime on, ${SUBSCRIBERS} subscribers`, path: '/live-books', subscribers: SUBSCRIBERS },
];

async function load(base: string, path: string, write: 'create' | 'patch'): Promise<number> {
  let n = 0;
  const result = await autocannon({
    url: `${base}${path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      write === 'create'
        ? { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{"title":"Bench","pages":1}' }
        : {
            method: 'PATCH',
            setupRequest: (request) => ({
              ...request,
              path: `${path}/${1 + (n++ % BOOKS)}`,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ pages: n % 900 }),
            }),
          },
    ],
  });
  if (result.non2xx > 0) throw new Error(`${write} on ${path}: ${result.non2xx} answers were not 2xx`);
  return result.requests.average;
}

async function subscribe(
  base: string,
  count: number,
): Promise<{ close(): void; delays: number[]; received(): number }> {
  const delays: number[] = [];
  let received = 0;
  const sources = await Promise.all(
    Array.from({ length: count }, async () => {
      const source = new EventSource(`${base}/live-books/events`);
      for (const type of ['created', 'patched']) {
        source.addEventListener(type, (message) => {
          received++;
          delays.push(Date.now() - Date.parse((JSON.parse(message.data) as { occurredAt: string }).occurredAt));
        });
      }
      await new Promise<void>((resolve, reject) => {
        source.onopen = () => resolve();
        source.onerror = () => reject(new Error('a subscriber could not connect'));
      });
      return source;
    }),
  );
  return { close: () => sources.forEach((source) => source.close()), delays, received: () => received };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const url = process.env['BENCH_DATABASE_URL'];
  const db: BenchDatabase = url ? { name: 'postgres', location: url } : sqliteBenchDatabase();
  await seedBenchDatabase(db, BOOKS);
  const server = fork(join(__dirname, 'realtime-server.ts'), [], {
    env: { ...process.env, BENCH_DB: JSON.stringify(db) },
    execArgv: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.on('message', (message: { type: string; port?: number; message?: string }) =>
      message.type === 'ready' ? resolve(message.port!) : reject(new Error(message.message)),
    ),
  );
  const base = `http://127.0.0.1:${port}`;
  console.log(`realtime bench: ${db.name}, ${BOOKS} books, ${CONNECTIONS} connections, ${DURATION} s per run`);
  const rows: string[] = [];
  try {
    for (const write of ['create', 'patch'] as const) {
      for (const run of RUNS) {
        const subscribers = run.subscribers > 0 ? await subscribe(base, run.subscribers) : undefined;
        const started = Date.now();
        const rps = await load(base, run.path, write);
        // Let the last events land before counting them.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const seconds = (Date.now() - started) / 1000;
        let delivery = '';
        if (subscribers) {
          const { delays } = subscribers;
          delivery = ` | ${Math.round(subscribers.received() / seconds)} events/s delivered | commit to delivery p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms`;
          subscribers.close();
        }
        rows.push(`${write.padEnd(6)} | ${run.label.padEnd(32)} | ${Math.round(rps)} req/s${delivery}`);
        console.log(rows[rows.length - 1]);
      }
    }
  } finally {
    server.send('stop');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
