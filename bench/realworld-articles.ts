/**
 * The RealWorld (Conduit) article list, `GET /api/articles?limit=20` for a signed-in caller (`Authorization: Token
 * <jwt>`), served by the Svc app of examples/realworld and by the same endpoint written by hand with Nest and TypeORM
 * (`bench/support/handwritten-articles.ts`), on the same entities and the same database. Each article comes with its
 * `tagList` (names), its author's profile (`username`, `bio`, `image`, `following`) and `favorited` /
 * `favoritesCount` for the caller.
 *
 * One child process (this file, argument `serve`) makes a fresh database, boots the Conduit app on it (its migrations
 * make the tables, as test/conduit-server.ts boots it, logger off), seeds it (50 users, 100 tags, 1,000 articles with
 * 0 to 4 tags each, random favorites and follows; the caller follows some authors and favorited some articles), boots
 * the hand-written app on the same database and serves both. Before anything is timed it asks both apps for the page
 * and compares them (the same slugs in the same order, the same count, and each article's every field, a `tagList`
 * as a set); a difference is printed and the run stops. It then counts the SQL statements of 20 requests to each
 * app, through a wrap of each DataSource's logger, and times the statements of one request run alone on the database
 * ("SQL alone": what the database does for a request, without the app around it). autocannon drives the apps from
 * this process: a warm-up run of each, then BENCH_ROUNDS rounds of BENCH_DURATION seconds per app, alternating which
 * goes first. Prints a line per run and one table; CPU µs/req is the server process's CPU time over a run per request
 * served.
 *
 * SQLite (a temp file); BENCH_DATABASE_URL=postgres://... adds PostgreSQL (schema `svc_bench_realworld`, dropped and
 * made again, dropped at the end). BENCH_ROUNDS (default 3), BENCH_DURATION (seconds per run, default 3),
 * BENCH_WARMUP (seconds, default 2), BENCH_CONNECTIONS (default 10); BENCH_SQL=1 prints the statements of one request
 * of each app; BENCH_SERVER_NODE_OPTIONS adds node flags to the server process. Prints figures; never fails on speed.
 *
 *   pnpm bench:realworld
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions, type Logger } from 'typeorm';
import { jwtOptions } from '../examples/realworld/src/auth/auth-options';
import { createConduitApp } from '../examples/realworld/src/conduit-app';
import { databaseOptions, type DatabaseLocation } from '../examples/realworld/src/database-options';
import { Article, Tag, User } from '../examples/realworld/src/entities';
import { StatementCounter } from '../test/support/statement-counter';
import { nonNegativeInt, positiveInt } from './bench-env';
import { cpuMicroseconds } from './process-cpu';
import { HandwrittenArticlesModule } from './support/handwritten-articles';
import { seededRandom } from './seeded-random';

const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const DURATION = positiveInt('BENCH_DURATION', 3);
const WARMUP = nonNegativeInt('BENCH_WARMUP', 2);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const PRINT_SQL = process.env['BENCH_SQL'] === '1';
/** Extra node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_OPTIONS = (process.env['BENCH_SERVER_NODE_OPTIONS'] ?? '').split(' ').filter(Boolean);
/** Requests whose statements are counted, one after another, per app. */
const COUNTED = 20;
const PATH = '/api/articles?limit=20';
const SECRET = 'svc-bench-realworld-secret';
const PG_SCHEMA = 'svc_bench_realworld';
const USERS = 50;
const TAGS = 100;
const ARTICLES = 1000;

type Side = 'svc' | 'handwritten';
const SIDES: readonly Side[] = ['svc', 'handwritten'];
const SIDE_NAMES: Readonly<Record<Side, string>> = { svc: 'Svc (examples/realworld)', handwritten: 'hand-written' };

interface BenchDatabase {
  readonly name: 'SQLite' | 'PostgreSQL';
  readonly location: DatabaseLocation;
}

interface Statements {
  /** SQL statements per request, transaction control left out. */
  readonly statements: number;
  /** Every statement sent per request, transaction control included. */
  readonly roundTrips: number;
  /** The statements of one request, each run alone on the app's DataSource, one after the other: µs in all. */
  readonly sqlAlone: number;
}

interface Statement {
  readonly query: string;
  readonly parameters: readonly unknown[];
}

/** A DataSource's statements: counted always, kept while `capturing`. */
interface Watch {
  readonly counter: StatementCounter;
  readonly captured: Statement[];
  capturing: boolean;
}

type ServerMessage =
  | { type: 'ready'; ports: Record<Side, number>; token: string; statements: Record<Side, Statements> }
  | { type: 'error'; message: string };

// ---------------------------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------------------------

async function insertChunked<T extends object>(dataSource: DataSource, entity: new () => T, rows: object[]) {
  for (let i = 0; i < rows.length; i += 100) await dataSource.getRepository(entity).insert(rows.slice(i, i + 100));
}

/** Rows of a join table, as plain multi-row INSERTs of the integer keys the seed made. */
async function insertLinks(dataSource: DataSource, table: string, columns: [string, string], pairs: number[][]) {
  for (let i = 0; i < pairs.length; i += 500) {
    const values = pairs
      .slice(i, i + 500)
      .map(([a, b]) => `(${a}, ${b})`)
      .join(', ');
    await dataSource.query(`INSERT INTO "${table}" ("${columns[0]}", "${columns[1]}") VALUES ${values}`);
  }
}

/**
 * 50 users (user01 is the caller), 100 tags, 1,000 articles an hour apart by random authors with 0 to 4 tags each;
 * each other user favorites about 4% of the articles and follows about 20% of the users; the caller favorites about
 * 30% and follows about 30%. Returns the caller and a line saying what was made.
 */
async function seed(dataSource: DataSource): Promise<{ caller: User; summary: string }> {
  const random = seededRandom(20261208);
  const below = (n: number) => Math.floor(random() * n);
  await insertChunked(
    dataSource,
    User,
    Array.from({ length: USERS }, (_, i) => {
      const n = String(i + 1).padStart(2, '0');
      return {
        username: `user${n}`,
        email: `user${n}@conduit.test`,
        passwordHash: 'not-used-by-the-bench',
        bio: i % 3 === 0 ? null : `Bio of user${n}`,
        image: i % 2 === 0 ? `https://images.conduit.test/user${n}.png` : null,
      };
    }),
  );
  await insertChunked(
    dataSource,
    Tag,
    Array.from({ length: TAGS }, (_, i) => ({ name: `tag-${String(i).padStart(3, '0')}` })),
  );
  const users = await dataSource.getRepository(User).find({ order: { id: 'ASC' } });
  const tags = await dataSource.getRepository(Tag).find({ order: { id: 'ASC' } });
  const start = Date.UTC(2026, 0, 1);
  await insertChunked(
    dataSource,
    Article,
    Array.from({ length: ARTICLES }, (_, i) => {
      const n = String(i + 1).padStart(4, '0');
      const createdAt = new Date(start + i * 3_600_000);
      return {
        slug: `article-${n}`,
        title: `Article ${n}`,
        description: `What article ${n} is about`,
        body: `The body of article ${n}. `.repeat(20),
        createdAt,
        updatedAt: new Date(createdAt.getTime() + below(3_600_000)),
        authorId: users[below(USERS)]!.id,
      };
    }),
  );
  const articles = await dataSource.getRepository(Article).find({ select: { id: true }, order: { id: 'ASC' } });
  const caller = users[0]!;
  const tagLinks = articles.flatMap((article) => {
    const chosen = new Set<number>();
    const count = below(5);
    while (chosen.size < count) chosen.add(tags[below(TAGS)]!.id);
    return [...chosen].map((tag) => [article.id, tag]);
  });
  const favorites = articles.flatMap((article) =>
    users.filter((user) => random() < (user === caller ? 0.3 : 0.04)).map((user) => [article.id, user.id]),
  );
  const follows = users.flatMap((follower) =>
    users
      .filter((followee) => followee !== follower && random() < (follower === caller ? 0.3 : 0.2))
      .map((followee) => [follower.id, followee.id]),
  );
  await insertLinks(dataSource, 'article_tags', ['article_id', 'tag_id'], tagLinks);
  await insertLinks(dataSource, 'favorites', ['article_id', 'user_id'], favorites);
  await insertLinks(dataSource, 'follows', ['follower_id', 'followee_id'], follows);
  const ofCaller = (pairs: number[][], at: 0 | 1) => pairs.filter((pair) => pair[at] === caller.id).length;
  const summary =
    `${USERS} users, ${TAGS} tags, ${ARTICLES} articles, ${tagLinks.length} tag links, ${favorites.length} favorites ` +
    `(${ofCaller(favorites, 1)} by the caller), ${follows.length} follows (the caller follows ${ofCaller(follows, 0)})`;
  return { caller, summary };
}

/** Counts what the DataSource's logger is handed (every TypeORM query runner hands it each statement), keeping it. */
function watchStatements(dataSource: DataSource): Watch {
  const watch: Watch = { counter: new StatementCounter(), captured: [], capturing: false };
  const logger: Logger = dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, runner) => {
    watch.counter.logQuery(query);
    // TypeORM 1 may hand named parameters as an object.
    const values: readonly unknown[] = Array.isArray(parameters) ? parameters : Object.values(parameters ?? {});
    if (watch.capturing) watch.captured.push({ query, parameters: values });
    return logQuery(query, parameters, runner);
  };
  return watch;
}

function printable({ query, parameters }: Statement): string {
  const values = parameters.map((value) => (typeof value === 'bigint' ? Number(value) : value));
  return values.length ? `${query} -- ${JSON.stringify(values)}` : query;
}

/**
 * Each of `statements` run alone through `dataSource.query`, one after the other, 5 times to warm up and 30 timed:
 * the sum of each statement's median, in µs. The database's work for one request, without the app around it (on
 * PostgreSQL with a round trip per statement).
 */
async function sqlAlone(dataSource: DataSource, statements: readonly Statement[]): Promise<number> {
  let total = 0;
  for (const { query, parameters } of statements) {
    const times: number[] = [];
    for (let i = 0; i < 35; i++) {
      const start = process.hrtime.bigint();
      await dataSource.query(query, [...parameters]);
      if (i >= 5) times.push(Number(process.hrtime.bigint() - start) / 1000);
    }
    total += median(times);
  }
  return total;
}

interface Page {
  readonly articles: Array<Record<string, unknown>>;
  readonly articlesCount: number;
}

async function getPage(port: number, token: string): Promise<Page> {
  const response = await fetch(`http://127.0.0.1:${port}${PATH}`, { headers: { authorization: `Token ${token}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${PATH} answered ${response.status}: ${text.slice(0, 400)}`);
  return JSON.parse(text) as Page;
}

/** JSON with every object's keys sorted. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * What differs between the two answers: the envelope (`articlesCount`, `limit`, `offset`), the slugs, then each
 * article's fields, the author's one by one. A `tagList` is compared as a set: neither app orders it by anything the
 * API defines (Svc keeps the join table's order, which is the order the links were written in on PostgreSQL; the
 * hand-written app orders by tag id). `reordered` counts the articles whose two lists differ in order only.
 */
function differences(svc: Page, hand: Page): { found: string[]; reordered: number } {
  const found: string[] = [];
  let reordered = 0;
  const envelope = ({ articles: _articles, ...rest }: Page) => canonical(rest);
  if (envelope(svc) !== envelope(hand)) found.push(`envelope: Svc ${envelope(svc)}, hand-written ${envelope(hand)}`);
  const slugs = (page: Page) => page.articles.map((article) => String(article['slug'])).join(',');
  if (slugs(svc) !== slugs(hand)) found.push(`slugs:\n  Svc          ${slugs(svc)}\n  hand-written ${slugs(hand)}`);
  const flat = (article: Record<string, unknown>): Record<string, unknown> => {
    const { author, ...rest } = article;
    return { ...rest, ...Object.fromEntries(Object.entries(author ?? {}).map(([k, v]) => [`author.${k}`, v])) };
  };
  const sorted = (list: unknown) => (Array.isArray(list) ? [...(list as string[])].sort() : list);
  svc.articles.forEach((article, i) => {
    const a = flat(article);
    const b = flat(hand.articles[i] ?? {});
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const [x, y] = [canonical(a[key]), canonical(b[key])];
      if (x === y) continue;
      if (key === 'tagList' && canonical(sorted(a[key])) === canonical(sorted(b[key]))) reordered++;
      else found.push(`${String(article['slug'])} ${key}: Svc ${x}, hand-written ${y}`);
    }
  });
  return { found, reordered };
}

/** The statements of `COUNTED` requests, one after the other, per request; then one request's run alone. */
async function statementsOf(port: number, token: string, watch: Watch, dataSource: DataSource): Promise<Statements> {
  const before = { count: watch.counter.count, trips: watch.counter.roundTrips };
  for (let i = 0; i < COUNTED; i++) await getPage(port, token);
  const statements = (watch.counter.count - before.count) / COUNTED;
  const roundTrips = (watch.counter.roundTrips - before.trips) / COUNTED;
  watch.captured.length = 0;
  watch.capturing = true;
  await getPage(port, token);
  watch.capturing = false;
  return { statements, roundTrips, sqlAlone: await sqlAlone(dataSource, [...watch.captured]) };
}

async function dropSchema(url: string, create: boolean): Promise<void> {
  const admin = await new DataSource({ type: 'postgres', url, logging: false }).initialize();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${PG_SCHEMA}" CASCADE`);
    if (create) await admin.query(`CREATE SCHEMA "${PG_SCHEMA}"`);
  } finally {
    await admin.destroy();
  }
}

async function serve(): Promise<void> {
  const db = JSON.parse(process.env['BENCH_RW_DB']!) as BenchDatabase;
  const url = db.location.url!;
  if (db.location.schema) await dropSchema(url, true);
  const apps: INestApplication[] = [];
  const stop = async () => {
    for (const app of apps) await app.close();
    if (db.location.schema) await dropSchema(url, false);
  };
  process.on('message', (message) => {
    if (message === 'stop') void stop().finally(() => process.exit(0));
  });
  try {
    const svc = await createConduitApp({ database: db.location, jwtSecret: SECRET, logger: false });
    apps.push(svc);
    await svc.listen(0, '127.0.0.1');
    const svcData = svc.get(DataSource);
    const seeded = Date.now();
    const { caller, summary } = await seed(svcData);
    console.log(`  seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s: ${summary}`);

    // The same DataSource options as the Conduit app's (entities, driver settings, PostgreSQL's search path); the
    // tables are there already, so no migrations.
    const handOptions: DataSourceOptions = { ...databaseOptions(db.location), migrationsRun: false };
    const hand = await NestFactory.create(HandwrittenArticlesModule.forRoot(handOptions, SECRET), { logger: false });
    apps.push(hand);
    hand.setGlobalPrefix('api');
    hand.enableCors();
    await hand.listen(0, '127.0.0.1');
    const ports = {
      svc: (svc.getHttpServer().address() as AddressInfo).port,
      handwritten: (hand.getHttpServer().address() as AddressInfo).port,
    };
    const token = new JwtService(jwtOptions(SECRET)).sign({ sub: caller.id, username: caller.username });

    const dataSources = { svc: svcData, handwritten: hand.get(DataSource) };
    const watches = { svc: watchStatements(dataSources.svc), handwritten: watchStatements(dataSources.handwritten) };
    const pages = { svc: await getPage(ports.svc, token), handwritten: await getPage(ports.handwritten, token) };
    const { found, reordered } = differences(pages.svc, pages.handwritten);
    if (found.length > 0) {
      const shown = found.slice(0, 30).join('\n  ');
      throw new Error(`the apps answered different pages (${found.length} differences):\n  ${shown}`);
    }
    const page = pages.svc.articles;
    const author = (article: Record<string, unknown>) => article['author'] as Record<string, unknown>;
    console.log(
      `  check: both apps answered the same page: ${page.length} articles of ${pages.svc.articlesCount}, ` +
        `${page.filter((a) => a['favorited'] === true).length} favorited by the caller, ` +
        `${page.filter((a) => author(a)['following'] === true).length} by authors the caller follows, ` +
        `${page.reduce((n, a) => n + (a['tagList'] as unknown[]).length, 0)} tags, ` +
        `${page.reduce((n, a) => n + Number(a['favoritesCount']), 0)} favorites in all` +
        (reordered > 0 ? ` (the tags of ${reordered} articles in another order, compared as sets)` : ''),
    );
    console.log(`    sample ${canonical(page[0])}`);

    const statements = {} as Record<Side, Statements>;
    for (const side of SIDES) {
      statements[side] = await statementsOf(ports[side], token, watches[side], dataSources[side]);
      if (!PRINT_SQL) continue;
      console.log(`  statements of one request, ${SIDE_NAMES[side]}:`);
      for (const statement of watches[side].captured) console.log(`    ${printable(statement)}`);
    }
    process.send!({ type: 'ready', ports, token, statements } satisfies ServerMessage);
  } catch (error) {
    process.send!({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    } satisfies ServerMessage);
    await stop();
    process.exit(1);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The load
// ---------------------------------------------------------------------------------------------------------------

interface Run {
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
  /** The server process's CPU time (user and system) over the run, per request, in µs (NaN without /proc). */
  readonly cpu: number;
}

async function load(port: number, token: string, seconds: number, serverPid: number): Promise<Run> {
  const cpuBefore = cpuMicroseconds(serverPid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', path: PATH, headers: { authorization: `Token ${token}` } }],
  });
  const cpu = cpuMicroseconds(serverPid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: result.requests.total > 0 ? cpu / result.requests.total : NaN,
  };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '-';

interface Result {
  readonly db: BenchDatabase;
  readonly runs: Record<Side, Run[]>;
  readonly statements: Record<Side, Statements>;
}

async function benchDatabase(db: BenchDatabase): Promise<Result> {
  console.log(`\n== ${db.name} ==`);
  const child = fork(__filename, ['serve'], {
    execArgv: [...SERVER_NODE_OPTIONS, '-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'],
    env: { ...process.env, BENCH_RW_DB: JSON.stringify(db) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const ready = await new Promise<Extract<ServerMessage, { type: 'ready' }>>((resolve, reject) => {
      child.once('message', (message: ServerMessage) =>
        message.type === 'ready' ? resolve(message) : reject(new Error(message.message)),
      );
      child.once('exit', (code) => reject(new Error(`the server exited (${String(code)}) before it was ready`)));
    });
    for (const side of SIDES) {
      const { statements, roundTrips, sqlAlone } = ready.statements[side];
      console.log(
        `  ${SIDE_NAMES[side].padEnd(25)} ${fmt(statements, 1)} statements per request (${fmt(roundTrips, 1)} sent with transaction control) over ${COUNTED} requests; one request's statements run alone: ${fmt(sqlAlone)} µs`,
      );
    }
    if (WARMUP > 0) for (const side of SIDES) await load(ready.ports[side], ready.token, WARMUP, child.pid!);
    const runs: Record<Side, Run[]> = { svc: [], handwritten: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? SIDES : [...SIDES].reverse();
      for (const side of order) {
        const run = await load(ready.ports[side], ready.token, DURATION, child.pid!);
        runs[side].push(run);
        console.log(
          `  round ${round}/${ROUNDS}  ${SIDE_NAMES[side].padEnd(25)} ${fmt(run.rate).padStart(6)} req/s  p50 ${fmt(run.p50).padStart(3)} ms  p99 ${fmt(run.p99).padStart(3)} ms  CPU ${fmt(run.cpu).padStart(5)} µs/req`,
        );
      }
    }
    return { db, runs, statements: ready.statements };
  } finally {
    if (child.connected) child.send('stop');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

function printTable(results: readonly Result[]): void {
  console.log(
    `\nGET ${PATH}, signed in, ${ARTICLES} articles: median of ${ROUNDS} round(s) x ${DURATION} s, ${CONNECTIONS} connections`,
  );
  console.log(
    '| database | app | req/s | p50 ms | p99 ms | CPU µs/req | statements/req | SQL alone µs/req | Svc / hand |\n|---|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const { db, runs, statements } of results) {
    const rate = (side: Side) => median(runs[side].map((run) => run.rate));
    for (const side of SIDES) {
      const pick = (f: (run: Run) => number) => fmt(median(runs[side].map(f)));
      const ratio = side === 'svc' ? fmt(rate('svc') / rate('handwritten'), 2) : '';
      console.log(
        `| ${db.name} | ${SIDE_NAMES[side]} | ${pick((r) => r.rate)} | ${pick((r) => r.p50)} | ${pick((r) => r.p99)} | ${pick((r) => r.cpu)} | ${fmt(statements[side].statements, 1)} | ${fmt(statements[side].sqlAlone)} | ${ratio} |`,
      );
    }
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'serve') return serve();
  console.log(`Svc benchmark: RealWorld article list  ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(`rounds ${ROUNDS}, duration ${DURATION} s, warm-up ${WARMUP} s, connections ${CONNECTIONS}`);
  const databases: BenchDatabase[] = [
    { name: 'SQLite', location: { url: `sqlite:${join(mkdtempSync(join(tmpdir(), 'svc-bench-rw-')), 'conduit.db')}` } },
  ];
  const url = process.env['BENCH_DATABASE_URL'];
  if (url?.startsWith('postgres')) databases.push({ name: 'PostgreSQL', location: { url, schema: PG_SCHEMA } });
  const results: Result[] = [];
  for (const db of databases) results.push(await benchDatabase(db));
  printTable(results);
  console.log(
    `\nload average at the end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
