/**
 * Aggregates: Svc's `GET /books/aggregate` (group by author, the sum and the average of pages) against the same
 * `GROUP BY` written by hand with TypeORM's query builder, over 100,000 books by 500 authors, on SQLite and, when
 * BENCH_DATABASE_URL is set and answers, PostgreSQL. A second scenario groups by a to-one path, `author.country`.
 *
 * As in `pnpm bench`: both apps live in one child process (this file, run with the argument `serve`), autocannon drives
 * them from this process, and each round runs every app in turn, alternating the order. Before timing, each app
 * answers one request of each scenario with the same body, and the statements it sends are counted and printed.
 * Prints a line per run and a table per database; never fails because something is slow.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import {
  BadRequestException,
  Controller,
  DefaultValuePipe,
  Get,
  Module,
  ParseIntPipe,
  Query,
  type DynamicModule,
  type INestApplication,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { Svc, SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { fork, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { DataSource, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import { StatementCounter } from '../test/support/statement-counter';
import { nonNegativeInt, positiveInt } from './bench-env';
import {
  BENCH_SCHEMA,
  benchDataSourceOptions,
  seedBenchDatabase,
  sqliteBenchDatabase,
  type BenchDatabase,
} from './database';
import { BenchAuthor, BenchBook } from './entities';

const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const DURATION = positiveInt('BENCH_DURATION', 5);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const WARMUP = nonNegativeInt('BENCH_WARMUP', 1);
/** The bench's own seed: 10,000 books over its 500 authors; the rest are added over the same authors. */
const BASE_BOOKS = 10_000;
const AUTHORS = 500;
const BOOKS = Math.max(positiveInt('BENCH_AGGREGATE_BOOKS', 100_000), BASE_BOOKS);
/** Svc's default `aggregate.limits.maxGroups`: the page of groups it answers when no `limit` is sent. */
const MAX_GROUPS = 1000;
const HANDWRITTEN = 'handwritten_aggregate';
/** Extra node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_OPTIONS = (process.env['BENCH_SERVER_NODE_OPTIONS'] ?? '').split(' ').filter(Boolean);

/**
 * Who is timed: Svc; the hand-written route, which counts the groups only when its page comes back full (here it never
 * does: 500 or 2 groups of a page of 1,000); and the same route counting the groups in a second statement every time,
 * as Svc does, so the two statements' cost can be told from the rest of Svc's.
 */
type Runner = 'svc' | 'handwritten' | 'hand+count';
const RUNNERS = (process.env['BENCH_APPS'] ?? 'svc,handwritten,hand+count').split(',') as Runner[];
type AppName = 'svc' | 'handwritten';
const APP_OF: Record<Runner, AppName> = { svc: 'svc', handwritten: 'handwritten', 'hand+count': 'handwritten' };

interface Scenario {
  readonly name: string;
  /** The query string both apps are sent (the hand-written app reads only `groupBy`, `limit` and `offset`). */
  readonly query: string;
}

const ALL_SCENARIOS: readonly Scenario[] = [
  { name: 'by-author', query: 'groupBy=authorId&sum=pages&avg=pages' },
  { name: 'by-country', query: 'groupBy=author.country&sum=pages&avg=pages' },
];

/** BENCH_SCENARIOS=by-author,by-country picks some. */
const SCENARIOS = ALL_SCENARIOS.filter(
  (scenario) => !process.env['BENCH_SCENARIOS'] || process.env['BENCH_SCENARIOS'].split(',').includes(scenario.name),
);

const pathOf = (runner: Runner, scenario: Scenario): string =>
  `/books/${runner === 'hand+count' ? 'aggregate-counted' : 'aggregate'}?${scenario.query}`;

// ---------------------------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------------------------

/**
 * Svc's books with an aggregate: the author's id and the author's country group, and pages take a sum and an average.
 * Keys are no default aggregate field, so `authorId` is listed in `groupBy`; `fields` lists pages' two functions.
 */
@Svc(BenchBook, { aggregate: { groupBy: ['authorId', 'author.country'], fields: { pages: ['sum', 'avg'] } } })
@Controller('books')
class SvcAggregateBooksController {}

/** Registered so the `author.country` path reads authors through Author's own config, as in `pnpm bench`. */
@Svc(BenchAuthor)
@Controller('authors')
class SvcAggregateAuthorsController {}

/** The group keys the hand-written route takes: the expression it groups by, and whether it joins the author. */
const HAND_KEYS: Readonly<Record<string, { readonly expression: string; readonly join: boolean }>> = {
  authorId: { expression: 'book.authorId', join: false },
  'author.country': { expression: 'author.country', join: true },
};

interface RawGroup {
  readonly key: unknown;
  readonly count: string | number;
  readonly sum: string | number | null;
  readonly avg: string | number | null;
}

/**
 * The same aggregate written by hand: one `GROUP BY` through `dataSource.createQueryBuilder()`, the page of groups
 * ordered by the key (nulls last, as Svc orders them), answered in Svc's shape `{ items: [{ group, count, sum, avg }],
 * limit, offset, total }` with PostgreSQL's text counts, sums and averages read as numbers. `total` is the page's
 * length when the page is the first and not full; otherwise a second statement counts the groups.
 * `/books/aggregate-counted` always sends that second statement, beside the first, as Svc does.
 */
@Controller('books')
class HandwrittenAggregateController {
  constructor(@InjectDataSource(HANDWRITTEN) private readonly dataSource: DataSource) {}

  @Get('aggregate')
  aggregate(
    @Query('groupBy') groupBy: string,
    @Query('limit', new DefaultValuePipe(MAX_GROUPS), ParseIntPipe) limit: number,
    @Query('offset', new DefaultValuePipe(0), ParseIntPipe) offset: number,
  ) {
    return this.groups(groupBy, limit, offset, false);
  }

  @Get('aggregate-counted')
  aggregateCounted(
    @Query('groupBy') groupBy: string,
    @Query('limit', new DefaultValuePipe(MAX_GROUPS), ParseIntPipe) limit: number,
    @Query('offset', new DefaultValuePipe(0), ParseIntPipe) offset: number,
  ) {
    return this.groups(groupBy, limit, offset, true);
  }

  private async groups(groupBy: string, limit: number, offset: number, alwaysCount: boolean) {
    const key = HAND_KEYS[groupBy];
    if (!key) throw new BadRequestException(`groupBy must be one of ${Object.keys(HAND_KEYS).join(', ')}`);
    const take = Math.min(Math.max(limit, 1), MAX_GROUPS);
    const grouped = (query: SelectQueryBuilder<ObjectLiteral>) => {
      const from = query.from(BenchBook, 'book');
      return (key.join ? from.leftJoin('book.author', 'author') : from).groupBy(key.expression);
    };
    const page = grouped(this.dataSource.createQueryBuilder())
      .select(key.expression, 'key')
      .addSelect('COUNT(*)', 'count')
      .addSelect('SUM(book.pages)', 'sum')
      .addSelect('AVG(book.pages)', 'avg')
      .orderBy(key.expression, 'ASC', 'NULLS LAST')
      .limit(take)
      .offset(offset)
      .getRawMany<RawGroup>();
    const count = () =>
      this.dataSource
        .createQueryBuilder()
        .select('COUNT(*)', 'total')
        .from((query) => grouped(query.select('1', 'one')), 'groups')
        .getRawOne<{ total: string | number }>();
    const [rows, counted] = alwaysCount ? await Promise.all([page, count()]) : [await page, undefined];
    const total =
      counted !== undefined
        ? Number(counted.total)
        : offset === 0 && rows.length < take
          ? rows.length
          : Number((await count())?.total ?? 0);
    const number = (value: string | number | null) => (value === null ? null : Number(value));
    const items = rows.map((row) => ({
      group: { [groupBy]: row.key },
      count: Number(row.count),
      sum: { pages: number(row.sum) },
      avg: { pages: number(row.avg) },
    }));
    return { items, limit: take, offset, total };
  }
}

/** A statement counter that also keeps the text of each statement sent while `recording` is on. */
class StatementLog extends StatementCounter {
  recording = false;
  statements: string[] = [];

  override logQuery(query: string): void {
    super.logQuery(query);
    if (this.recording) this.statements.push(query);
  }
}

type ServerMessage =
  | { type: 'ready'; ports: Record<AppName, number> }
  | { type: 'error'; message: string }
  | { type: 'recorded'; statements: Record<AppName, { count: number; sent: number; sql: string[] }> };

/** What the parent sends: `record` starts counting statements, `recorded` answers what was sent since, `stop`. */
type ParentMessage = 'record' | 'recorded' | 'stop';

function svcModule(db: BenchDatabase, log: StatementLog): DynamicModule {
  @Module({})
  class SvcAggregateModule {}
  return {
    module: SvcAggregateModule,
    imports: [
      TypeOrmModule.forRoot({ ...benchDataSourceOptions(db), logger: log }),
      SvcModule.forRoot({ infrastructure: typeorm() }),
    ],
    controllers: [SvcAggregateBooksController, SvcAggregateAuthorsController],
  };
}

function handwrittenModule(db: BenchDatabase, log: StatementLog): DynamicModule {
  @Module({})
  class HandwrittenAggregateModule {}
  return {
    module: HandwrittenAggregateModule,
    // Named, so the two apps' data sources do not share @nestjs/typeorm's process-wide default name.
    imports: [TypeOrmModule.forRoot({ ...benchDataSourceOptions(db), name: HANDWRITTEN, logger: log })],
    controllers: [HandwrittenAggregateController],
  };
}

async function listen(module: DynamicModule): Promise<{ app: INestApplication; port: number }> {
  const app = await NestFactory.create(module, { logger: ['error', 'warn'] });
  await app.listen(0, '127.0.0.1');
  return { app, port: (app.getHttpServer().address() as AddressInfo).port };
}

/** Both apps over the database in BENCH_DB, each counting its statements (the same logger on both sides). */
async function serve(): Promise<void> {
  const db = JSON.parse(process.env['BENCH_DB'] ?? '') as BenchDatabase;
  const logs: Record<AppName, StatementLog> = { svc: new StatementLog(), handwritten: new StatementLog() };
  const svc = await listen(svcModule(db, logs.svc));
  const hand = await listen(handwrittenModule(db, logs.handwritten));
  const before: Record<AppName, { count: number; sent: number }> = {
    svc: { count: 0, sent: 0 },
    handwritten: { count: 0, sent: 0 },
  };
  process.on('message', (message: ParentMessage) => {
    if (message === 'stop') {
      void Promise.all([svc.app.close(), hand.app.close()]).finally(() => process.exit(0));
    } else if (message === 'record') {
      for (const app of ['svc', 'handwritten'] as const) {
        Object.assign(logs[app], { recording: true, statements: [] });
        before[app] = { count: logs[app].count, sent: logs[app].roundTrips };
      }
      process.send?.({ type: 'recorded', statements: recorded() } satisfies ServerMessage);
    } else if (message === 'recorded') {
      process.send?.({ type: 'recorded', statements: recorded() } satisfies ServerMessage);
      for (const app of ['svc', 'handwritten'] as const) logs[app].recording = false;
    }
  });
  const recorded = () => {
    const of = (app: AppName) => ({
      count: logs[app].count - before[app].count,
      sent: logs[app].roundTrips - before[app].sent,
      sql: [...logs[app].statements],
    });
    return { svc: of('svc'), handwritten: of('handwritten') };
  };
  process.send?.({ type: 'ready', ports: { svc: svc.port, handwritten: hand.port } } satisfies ServerMessage);
}

// ---------------------------------------------------------------------------------------------------------------
// The load process
// ---------------------------------------------------------------------------------------------------------------

/**
 * The bench's own seed of 10,000 books over 500 authors, then books up to BOOKS by the same rules (book i by author
 * `1 + i % 500`, pages `50 + (i * 37) % 900`), so every author has 200 of the 100,000 books.
 */
async function seed(db: BenchDatabase): Promise<void> {
  await seedBenchDatabase(db, BASE_BOOKS);
  const dataSource = await new DataSource(benchDataSourceOptions(db)).initialize();
  try {
    await dataSource.transaction(async (manager) => {
      for (let start = BASE_BOOKS; start < BOOKS; start += 500) {
        const rows = Array.from({ length: Math.min(500, BOOKS - start) }, (_, offset) => {
          const i = start + offset;
          return {
            title: `Book ${String(i + 1).padStart(5, '0')}`,
            pages: 50 + ((i * 37) % 900),
            rating: i % 10 === 0 ? null : 1 + ((i * 13) % 40) / 10,
            published: i % 4 !== 0,
            authorId: 1 + (i % AUTHORS),
          };
        });
        await manager.createQueryBuilder().insert().into(BenchBook).values(rows).execute();
      }
    });
    if (db.name === 'postgres') await dataSource.query(`VACUUM ANALYZE "${BENCH_SCHEMA}"."bench_book"`);
  } finally {
    await dataSource.destroy();
  }
}

/** Why PostgreSQL cannot be used, or undefined when it answers. */
async function unreachable(url: string): Promise<string | undefined> {
  const probe = new DataSource({ type: 'postgres', url, logging: false, connectTimeoutMS: 3000 });
  try {
    await probe.initialize();
    await probe.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    if (probe.isInitialized) await probe.destroy();
  }
}

interface Server {
  readonly child: ChildProcess;
  readonly ports: Record<AppName, number>;
}

async function startServers(db: BenchDatabase): Promise<Server> {
  const child = fork(__filename, ['serve'], {
    execArgv: [...SERVER_NODE_OPTIONS, '-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, BENCH_DB: JSON.stringify(db) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise<Record<AppName, number>>((resolve, reject) => {
    child.once('message', (message: ServerMessage) =>
      message.type === 'ready' ? resolve(message.ports) : reject(new Error(JSON.stringify(message))),
    );
    child.once('exit', (code) => reject(new Error(`server process exited with code ${code} before it was ready`)));
  });
  return { child, ports };
}

async function stopServers(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send('stop' satisfies ParentMessage);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function ask(child: ChildProcess, message: ParentMessage): Promise<Extract<ServerMessage, { type: 'recorded' }>> {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });
}

interface RunResult {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

async function load(port: number, path: string, seconds: number): Promise<RunResult> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', path }],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** JSON with every object's keys sorted, so two bodies compare equal whatever order each app writes its keys in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

interface AggregateBody {
  readonly items: ReadonlyArray<Record<string, unknown>>;
  readonly limit: number;
  readonly total: number;
}

/** Statements of one request, with transaction control left out, and all statements sent. */
interface Statements {
  readonly count: number;
  readonly sent: number;
}

/**
 * One request of `scenario` to each runner, one at a time, its statements recorded: each must answer 200 with every
 * group on one page (`total` groups), and all the same body, groups in the same order, keys in any order. Prints the
 * first group each answered and the statements each sent.
 */
async function check(server: Server, scenario: Scenario): Promise<Partial<Record<Runner, Statements>>> {
  const bodies: Array<[Runner, string]> = [];
  const statements: Partial<Record<Runner, Statements>> = {};
  const lines: string[] = [];
  for (const runner of RUNNERS) {
    const app = APP_OF[runner];
    await ask(server.child, 'record');
    const response = await fetch(`http://127.0.0.1:${server.ports[app]}${pathOf(runner, scenario)}`);
    const text = await response.text();
    const sent = (await ask(server.child, 'recorded')).statements[app];
    if (response.status !== 200)
      throw new Error(`${runner} answered ${scenario.name} with ${response.status}: ${text}`);
    const body = JSON.parse(text) as AggregateBody;
    if (body.items.length !== body.total || body.items.length === 0 || body.items.length > body.limit)
      throw new Error(`${runner} did not answer ${scenario.name} with all its groups: ${text.slice(0, 300)}`);
    bodies.push([runner, canonicalJson(body)]);
    statements[runner] = { count: sent.count, sent: sent.sent };
    lines.push(
      `    ${runner.padEnd(11)} ${body.items.length} groups of ${body.total}, limit ${body.limit}; ` +
        `${sent.count} statement(s) (${sent.sent} sent); first ${JSON.stringify(body.items[0])}`,
    );
    for (const sql of sent.sql) lines.push(`      ${sql}`);
  }
  console.log(`  check ${scenario.name}: GET ${pathOf('svc', scenario)}`);
  for (const line of lines) console.log(line);
  if (new Set(bodies.map(([, body]) => body)).size > 1) {
    throw new Error(
      `the apps answered ${scenario.name} with different bodies:\n${bodies
        .map(([runner, body]) => `${runner} ${body.slice(0, 600)}`)
        .join('\n')}`,
    );
  }
  console.log(`    same body from ${bodies.map(([runner]) => runner).join(', ')}`);
  return statements;
}

interface Row {
  readonly scenario: string;
  readonly runs: Partial<Record<Runner, RunResult[]>>;
  readonly statements: Partial<Record<Runner, Statements>>;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '-';

function formatRun(result: RunResult): string {
  const problems = result.non2xx + result.errors > 0 ? `  (!) non-2xx ${result.non2xx}, errors ${result.errors}` : '';
  return `${fmt(result.requestsPerSecond).padStart(7)} req/s  p50 ${fmt(result.p50).padStart(4)} ms  p99 ${fmt(result.p99).padStart(4)} ms${problems}`;
}

async function benchDatabase(db: BenchDatabase): Promise<Row[]> {
  console.log(`\n== ${db.name}: seeding ${fmt(BOOKS)} books over ${AUTHORS} authors ==`);
  const seeded = Date.now();
  await seed(db);
  console.log(`  seeded in ${fmt((Date.now() - seeded) / 1000, 1)} s`);
  const server = await startServers(db);
  const rows: Row[] = [];
  try {
    for (const scenario of SCENARIOS)
      rows.push({ scenario: scenario.name, runs: {}, statements: await check(server, scenario) });
    for (const [index, scenario] of SCENARIOS.entries()) {
      const row = rows[index]!;
      const portOf = (runner: Runner) => server.ports[APP_OF[runner]];
      if (WARMUP > 0) {
        for (const runner of RUNNERS) await load(portOf(runner), pathOf(runner, scenario), WARMUP);
        console.log(`  ${scenario.name}: warmed up ${WARMUP} s each`);
      }
      for (let round = 1; round <= ROUNDS; round++) {
        // Alternate the order, so no runner always goes first.
        const order = round % 2 === 1 ? RUNNERS : [...RUNNERS].reverse();
        for (const runner of order) {
          const result = await load(portOf(runner), pathOf(runner, scenario), DURATION);
          (row.runs[runner] ??= []).push(result);
          console.log(
            `  ${scenario.name.padEnd(10)} round ${round}/${ROUNDS}  ${runner.padEnd(11)} ${formatRun(result)}`,
          );
        }
      }
    }
  } finally {
    await stopServers(server.child);
  }
  console.log(
    `  load average after ${db.name} ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
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

/** Per scenario and runner: median req/s, its ratio to the hand-written route, median p50 and p99, statements. */
function printTable(db: BenchDatabase, rows: readonly Row[]): void {
  const medianOf = (runs: readonly RunResult[] | undefined, pick: (run: RunResult) => number) =>
    runs?.length ? median(runs.map(pick)) : NaN;
  const lines = rows.flatMap((row) => {
    const svc = medianOf(row.runs.svc, (r) => r.requestsPerSecond);
    return RUNNERS.map((runner) => {
      const runs = row.runs[runner];
      const rps = medianOf(runs, (r) => r.requestsPerSecond);
      const statements = row.statements[runner];
      return [
        `${row.scenario} ${runner}`,
        fmt(rps),
        runner === 'svc' ? '' : fmt(svc / rps, 2),
        fmt(medianOf(runs, (r) => r.p50)),
        fmt(medianOf(runs, (r) => r.p99)),
        statements ? `${statements.count}` : '-',
      ];
    });
  });
  console.log(
    `\n${db.name}: median of ${ROUNDS} round(s) x ${DURATION} s, ${CONNECTIONS} connections, ` +
      `${fmt(BOOKS)} books over ${AUTHORS} authors`,
  );
  printGrid(['scenario and app', 'req/s', 'Svc / this', 'p50 ms', 'p99 ms', 'statements per request'], lines);
}

async function main(): Promise<void> {
  console.log(`Aggregates benchmark  ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `rounds ${ROUNDS}, duration ${DURATION} s, connections ${CONNECTIONS}, warm-up ${WARMUP} s, ` +
      `runners ${RUNNERS.join(' + ')}`,
  );
  console.log(
    `Every app answers all groups on one page of up to ${MAX_GROUPS} (Svc's default maxGroups) and their number as ` +
      `total. handwritten counts the groups only when its page is full (never here), hand+count always counts them ` +
      `in a second statement, as Svc does.`,
  );
  const databases: BenchDatabase[] = [sqliteBenchDatabase()];
  const url = process.env['BENCH_DATABASE_URL'];
  if (!url) console.log('postgres: skipped, BENCH_DATABASE_URL is not set');
  else {
    const why = await unreachable(url);
    if (why) console.log(`postgres: skipped, ${url} does not answer: ${why}`);
    else databases.push({ name: 'postgres', location: url });
  }
  const results: Array<[BenchDatabase, Row[]]> = [];
  for (const db of databases) results.push([db, await benchDatabase(db)]);
  for (const [db, rows] of results) printTable(db, rows);
  console.log(
    `\nload average at the end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

(process.argv[2] === 'serve' ? serve() : main()).catch((error: unknown) => {
  if (process.argv[2] === 'serve') {
    process.send?.({
      type: 'error',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies ServerMessage);
    process.exit(1);
  }
  console.error(error);
  process.exitCode = 1;
});
