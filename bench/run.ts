/**
 * Load benchmark: Svc's generated books routes against a hand-written NestJS + TypeORM controller, same process, same
 * data. Runs on SQLite (a temp file) and, when BENCH_DATABASE_URL is set, on PostgreSQL (schema `svc_bench`).
 * Both apps live in one child process (`bench/serve.ts`); autocannon drives them from this process, alternating
 * Svc and hand-written runs. Prints a line per run and a table per database. Never fails because something is slow.
 */
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { seedBenchDatabase, sqliteBenchDatabase, type BenchDatabase } from './database';
import type { BenchAppName, ServerMessage } from './serve';
import { nonNegativeInt, positiveInt } from './bench-env';
import { cpuMicroseconds } from './process-cpu';

const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const DURATION = positiveInt('BENCH_DURATION', 5);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const WARMUP = nonNegativeInt('BENCH_WARMUP', 1);
const BOOKS = positiveInt('BENCH_BOOKS', 10_000);
/** Size of the fixed id set of `by-id-200` and `by-id-cached` (each fits the cache's 1,000-entry LRU). */
const ID_SET = Math.min(positiveInt('BENCH_ID_SET', 200), BOOKS);
const APPS = (process.env['BENCH_APPS'] ?? 'svc,handwritten').split(',') as BenchAppName[];
/** Extra node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_OPTIONS = (process.env['BENCH_SERVER_NODE_OPTIONS'] ?? '').split(' ').filter(Boolean);

interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** Path of each request to `app`; called per request so ids can be random. */
  readonly path: (app: BenchAppName) => string;
  readonly body?: () => string;
  /** Paths each app is sent once before the warm-up, so the result cache holds every key before anything is timed. */
  readonly prime?: (app: BenchAppName) => readonly string[];
  /** Answers the list envelope: the check before timing compares both apps' whole bodies. */
  readonly list?: true;
}

const randomId = (): number => 1 + Math.floor(Math.random() * BOOKS);
/** ID_SET ids spread evenly over the seeded books (1, 51, 101, ... for 200 of 10,000): the same set every run. */
const FIXED_IDS: readonly number[] = Array.from({ length: ID_SET }, (_, i) => 1 + Math.floor((i * BOOKS) / ID_SET));
const randomFixedId = (): number => FIXED_IDS[Math.floor(Math.random() * FIXED_IDS.length)]!;
/** Svc's cached books controller (`cache: { ttl: 60 }`) is at /cached-books; the hand-written app has no cache. */
const cachedBooks = (app: BenchAppName): string => (app === 'svc' ? '/cached-books' : '/books');

const ALL_SCENARIOS: readonly Scenario[] = [
  { name: 'list (limit 20)', method: 'GET', path: () => '/books?limit=20', list: true },
  // The two query scenarios run before create and patch, so they read the seeded rows, not the rows writes add.
  {
    name: 'list-filtered',
    method: 'GET',
    path: () => '/books?filter[pages][gte]=100&filter[title][contains]=1&sort=-pages&limit=20',
    list: true,
  },
  { name: 'list-include', method: 'GET', path: () => '/books?include=author&limit=20', list: true },
  // A custom read operation (Svc: `cheapBooksMany`, kind 'read', cardinality 'many', its own handler over
  // context.repository) against the same query written by hand: pages < 300, by pages then id, 20 rows, no count.
  { name: 'custom-read', method: 'GET', path: () => '/custom-books/cheap?limit=20', list: true },
  // The result cache: Svc at /cached-books (warm) against the same hand-written route; `list` is the cache-off figure.
  {
    name: 'list-cached',
    method: 'GET',
    path: (app) => `${cachedBooks(app)}?limit=20`,
    prime: (app) => [`${cachedBooks(app)}?limit=20`],
    list: true,
  },
  { name: 'by id', method: 'GET', path: () => `/books/${randomId()}` },
  // `by id` over a fixed id set: the cache-off figure for `by-id-cached`, which reads the same ids, all cached.
  { name: 'by-id-200', method: 'GET', path: () => `/books/${randomFixedId()}` },
  {
    name: 'by-id-cached',
    method: 'GET',
    path: (app) => `${cachedBooks(app)}/${randomFixedId()}`,
    prime: (app) => FIXED_IDS.map((id) => `${cachedBooks(app)}/${id}`),
  },
  {
    name: 'create',
    method: 'POST',
    path: () => '/books',
    body: () => JSON.stringify({ title: `New book ${Math.random()}`, pages: 123, authorId: 1 + (randomId() % 100) }),
  },
  {
    // Svc's create against the hand-written app's leanest one (`repository.insert`, answering the DTO).
    name: 'create-lean',
    method: 'POST',
    path: (app) => (app === 'svc' ? '/books' : '/books/lean'),
    body: () => JSON.stringify({ title: `New book ${Math.random()}`, pages: 123, authorId: 1 + (randomId() % 100) }),
  },
  {
    name: 'patch',
    method: 'PATCH',
    path: () => `/books/${randomId()}`,
    body: () => JSON.stringify({ pages: 1 + Math.floor(Math.random() * 999) }),
  },
];

/**
 * BENCH_SCENARIOS=list,list-filtered,list-include,custom-read,list-cached,by,by-id-200,by-id-cached,create,create-lean,patch picks
 * some (by the first word of the name).
 */
const SCENARIOS = ALL_SCENARIOS.filter(
  (scenario) =>
    !process.env['BENCH_SCENARIOS'] || process.env['BENCH_SCENARIOS'].split(',').includes(scenario.name.split(' ')[0]!),
);

interface RunResult {
  readonly requestsPerSecond: number;
  /**
   * The server process's CPU time (user and system) over the round, per request served, in µs (read from `/proc`;
   * NaN elsewhere). Only the loaded app works during a round, so it is that app's. It moves less than req/s with how
   * the two cores are shared between the server, the database and the load generator, but it moves too: a busier
   * server answers more requests per turn of its event loop.
   */
  readonly cpuPerRequest: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

interface Row {
  readonly scenario: string;
  readonly runs: Partial<Record<BenchAppName, RunResult[]>>;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function startServers(
  db: BenchDatabase,
): Promise<{ child: ChildProcess; ports: Partial<Record<BenchAppName, number>> }> {
  const child = fork(join(__dirname, 'serve.ts'), [], {
    execArgv: [...SERVER_NODE_OPTIONS, '-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, BENCH_DB: JSON.stringify(db), BENCH_APPS: APPS.join(',') },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise<Partial<Record<BenchAppName, number>>>((resolve, reject) => {
    child.once('message', (message: ServerMessage) =>
      message.type === 'ready' ? resolve(message.ports) : reject(new Error(message.message)),
    );
    child.once('exit', (code) => reject(new Error(`server process exited with code ${code} before it was ready`)));
  });
  return { child, ports };
}

async function stopServers(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send('stop');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function load(
  app: BenchAppName,
  port: number,
  scenario: Scenario,
  seconds: number,
  serverPid: number,
): Promise<RunResult> {
  const cpuBefore = cpuMicroseconds(serverPid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: scenario.method,
        setupRequest: (request) => ({
          ...request,
          path: scenario.path(app),
          ...(scenario.body ? { body: scenario.body(), headers: { 'content-type': 'application/json' } } : {}),
        }),
      },
    ],
  });
  const cpu = cpuMicroseconds(serverPid) - cpuBefore;
  return {
    requestsPerSecond: result.requests.average,
    cpuPerRequest: result.requests.total > 0 ? cpu / result.requests.total : NaN,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

interface ListBody {
  readonly items: Array<Record<string, unknown>>;
  readonly total: number | null;
}

/** JSON with every object's keys sorted, so two bodies compare equal whatever order each app writes its keys in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * One request of each scenario to each app: each must answer it with a 2xx before anything is timed. A list must
 * answer 20 items, and both apps the same ids in the same order and the same total, then the same whole body (the
 * envelope `{ items, limit, offset, total }` and every item, keys in any order); one sample item of each app is
 * printed so a reader can see the two bodies are comparable.
 */
async function checkEquivalence(ports: Partial<Record<BenchAppName, number>>): Promise<void> {
  for (const scenario of SCENARIOS) {
    const statuses: string[] = [];
    const lists: Array<[BenchAppName, ListBody]> = [];
    for (const app of APPS) {
      const response = await fetch(`http://127.0.0.1:${ports[app]}${scenario.path(app)}`, {
        method: scenario.method,
        headers: scenario.body ? { 'content-type': 'application/json' } : {},
        body: scenario.body?.(),
      });
      const text = await response.text();
      if (!response.ok)
        throw new Error(`${app} answered ${scenario.method} ${scenario.name} with ${response.status}: ${text}`);
      if (scenario.list) {
        const list = JSON.parse(text) as ListBody;
        if (list.items.length !== 20)
          throw new Error(`${app} did not answer ${scenario.name} with 20 items: ${text.slice(0, 200)}`);
        lists.push([app, list]);
      }
      statuses.push(`${app} ${response.status}`);
    }
    const shapes = lists.map(([app, list]) => `${app} ${list.items.length} items of ${list.total}`);
    console.log(`  check ${scenario.name}: ${statuses.join(', ')}${shapes.length ? `; ${shapes.join(', ')}` : ''}`);
    if (lists.length > 1) {
      const ids = lists.map(([, list]) => list.items.map((item) => item['id']).join(','));
      const totals = lists.map(([, list]) => list.total);
      if (new Set(ids).size > 1 || new Set(totals).size > 1) {
        throw new Error(
          `the apps answered ${scenario.name} with different rows: ${lists
            .map(([app, list], i) => `${app} total ${list.total}, ids ${ids[i]}`)
            .join('; ')}`,
        );
      }
      const bodies = lists.map(([, list]) => canonicalJson(list));
      if (new Set(bodies).size > 1) {
        throw new Error(
          `the apps answered ${scenario.name} with different bodies: ${lists
            .map(([app], i) => `${app} ${bodies[i]!.slice(0, 600)}`)
            .join('\n')}`,
        );
      }
    }
    for (const [app, list] of lists) console.log(`    sample ${app.padEnd(11)} ${JSON.stringify(list.items[0])}`);
  }
}

/** GETs each path once (a few at a time), each must answer 2xx: fills Svc's result cache before the warm-up. */
async function prime(app: BenchAppName, port: number, paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += CONNECTIONS) {
    await Promise.all(
      paths.slice(i, i + CONNECTIONS).map(async (path) => {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${app} answered GET ${path} with ${response.status} while priming`);
      }),
    );
  }
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function formatRun(result: RunResult): string {
  const problems = result.non2xx + result.errors > 0 ? `  (!) non-2xx ${result.non2xx}, errors ${result.errors}` : '';
  return `${fmt(result.requestsPerSecond).padStart(7)} req/s  p50 ${fmt(result.p50).padStart(4)} ms  p99 ${fmt(result.p99).padStart(4)} ms  CPU ${fmt(result.cpuPerRequest).padStart(5)} µs/req${problems}`;
}

async function benchDatabase(db: BenchDatabase): Promise<Row[]> {
  console.log(`\n== ${db.name}: seeding ${fmt(BOOKS)} books ==`);
  const seeded = Date.now();
  await seedBenchDatabase(db, BOOKS);
  console.log(`  seeded in ${fmt((Date.now() - seeded) / 1000, 1)} s`);
  const { child, ports } = await startServers(db);
  const rows: Row[] = [];
  try {
    await checkEquivalence(ports);
    for (const scenario of SCENARIOS) {
      const row: Row = { scenario: scenario.name, runs: {} };
      rows.push(row);
      if (scenario.prime) {
        for (const app of APPS) await prime(app, ports[app]!, scenario.prime(app));
        console.log(`  ${scenario.name}: primed ${scenario.prime(APPS[0]!).length} URL(s) on each app`);
      }
      if (WARMUP > 0) {
        for (const app of APPS) await load(app, ports[app]!, scenario, WARMUP, child.pid!);
        console.log(`  ${scenario.name}: warmed up ${WARMUP} s each`);
      }
      for (let round = 1; round <= ROUNDS; round++) {
        // Alternate which app goes first, so neither always runs on the warmer cache.
        const order = round % 2 === 1 ? APPS : [...APPS].reverse();
        for (const app of order) {
          const result = await load(app, ports[app]!, scenario, DURATION, child.pid!);
          (row.runs[app] ??= []).push(result);
          console.log(`  ${scenario.name.padEnd(16)} round ${round}/${ROUNDS}  ${app.padEnd(11)} ${formatRun(result)}`);
        }
      }
    }
  } finally {
    await stopServers(child);
  }
  return rows;
}

/** A markdown table: the first column left-aligned, the others right-aligned. */
function printGrid(header: readonly string[], lines: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const render = (cells: readonly string[]) =>
    '| ' + cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ') + ' |';
  console.log(render(header));
  console.log(
    '|' + widths.map((w, i) => (i === 0 ? ':' : '-') + '-'.repeat(w) + (i === 0 ? '-' : ':')).join('|') + '|',
  );
  for (const line of lines) console.log(render(line));
}

const medianRps = (runs: readonly RunResult[] | undefined): number =>
  runs?.length ? median(runs.map((r) => r.requestsPerSecond)) : NaN;
const ratio = (a: number, b: number): string => (Number.isFinite(a / b) ? fmt(a / b, 2) : '-');
const rps = (n: number): string => (Number.isFinite(n) ? fmt(n) : '-');

function printTable(db: BenchDatabase, rows: readonly Row[]): void {
  const header = [
    'scenario',
    'Svc req/s',
    'hand-written req/s',
    'Svc / hand',
    'Svc p50 ms',
    'hand p50 ms',
    'Svc p99 ms',
    'hand p99 ms',
    'Svc CPU µs/req',
    'hand CPU µs/req',
  ];
  const medianCell = (runs: readonly RunResult[], pick: (run: RunResult) => number): string =>
    runs.length ? fmt(median(runs.map(pick))) : '-';
  const lines = rows.map((row) => {
    const svc = row.runs.svc ?? [];
    const hand = row.runs.handwritten ?? [];
    const svcRps = medianRps(svc);
    const handRps = medianRps(hand);
    return [
      row.scenario,
      fmt(svcRps),
      fmt(handRps),
      ratio(svcRps, handRps),
      medianCell(svc, (r) => r.p50),
      medianCell(hand, (r) => r.p50),
      medianCell(svc, (r) => r.p99),
      medianCell(hand, (r) => r.p99),
      medianCell(svc, (r) => r.cpuPerRequest),
      medianCell(hand, (r) => r.cpuPerRequest),
    ];
  });
  console.log(
    `\n${db.name}: median of ${ROUNDS} round(s) x ${DURATION} s, ${CONNECTIONS} connections, ${fmt(BOOKS)} books`,
  );
  printGrid(header, lines);
  printCacheTable(db, rows);
}

/** Each read with Svc's result cache off, with it warm, and the hand-written baseline (which has no cache). */
const CACHE_PAIRS = [
  { read: 'list (limit 20)', off: 'list (limit 20)', warm: 'list-cached' },
  { read: `by id (${ID_SET} ids)`, off: 'by-id-200', warm: 'by-id-cached' },
] as const;

/**
 * The result cache table, from the rows above: Svc cache off (`list`, `by-id-200`), Svc cache warm (`list-cached`,
 * `by-id-cached`), and the hand-written medians of both scenarios (the same requests, so on a quiet machine the same
 * figure). Each ratio is against the hand-written runs of its own scenario, which alternated with Svc's, as in the
 * table above. Printed when a cached scenario ran; a scenario that did not run shows `-`.
 */
function printCacheTable(db: BenchDatabase, rows: readonly Row[]): void {
  const byName = new Map(rows.map((row) => [row.scenario, row]));
  const pairs = CACHE_PAIRS.filter((pair) => byName.has(pair.warm));
  if (!pairs.length) return;
  const lines = pairs.map((pair) => {
    const off = byName.get(pair.off);
    const warm = byName.get(pair.warm);
    const offRps = medianRps(off?.runs.svc);
    const warmRps = medianRps(warm?.runs.svc);
    const handOffRps = medianRps(off?.runs.handwritten);
    const handWarmRps = medianRps(warm?.runs.handwritten);
    return [
      pair.read,
      rps(offRps),
      rps(warmRps),
      `${rps(handOffRps)} / ${rps(handWarmRps)}`,
      ratio(offRps, handOffRps),
      ratio(warmRps, handWarmRps),
      ratio(warmRps, offRps),
    ];
  });
  console.log(`\n${db.name}: result cache (Svc cache: { ttl: 60 } at /cached-books, warm)`);
  printGrid(
    [
      'read',
      'Svc cache off',
      'Svc cache warm',
      'hand-written (off / warm runs)',
      'off / hand',
      'warm / hand',
      'warm / off',
    ],
    lines,
  );
}

async function main(): Promise<void> {
  console.log(`Svc benchmark  ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `rounds ${ROUNDS}, duration ${DURATION} s, connections ${CONNECTIONS}, warm-up ${WARMUP} s, apps ${APPS.join(' + ')}`,
  );
  const databases: BenchDatabase[] = [sqliteBenchDatabase()];
  const url = process.env['BENCH_DATABASE_URL'];
  if (url) databases.push({ name: 'postgres', location: url });
  const results: Array<[BenchDatabase, Row[]]> = [];
  for (const db of databases) results.push([db, await benchDatabase(db)]);
  for (const [db, rows] of results) printTable(db, rows);
  console.log(
    `\nload average at the end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
