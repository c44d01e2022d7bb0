/**
 * Page latency at depth: list page 1 and the page after row 900,000 of a 1,000,000-row table, under Svc's `offset`
 * and `cursor` pagination strategies, on SQLite (a better-sqlite3 file in the OS temp directory) and, when
 * BENCH_DATABASE_URL is set, on PostgreSQL (table `bench_depth_rows` in schema `bench_depth`).
 *
 * Goes through the real stack: a Nest app with SvcModule and `@Svc` controllers on one entity, one controller per
 * strategy (and per `pagination.count` setting), listening on a free port; the requests are sent in-process with
 * `fetch`, one at a time (latency, not throughput). The seeded table is kept and reused by later runs. Prints a table
 * and writes the report to docs/benchmarks/benchmark-pagination-depth-<date>.txt. Never fails because something is
 * slow.
 */
import 'reflect-metadata';
import { Controller, Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { EntityConfig } from '@svc/core';
import { Svc, SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Column, DataSource, Entity, PrimaryGeneratedColumn, type DataSourceOptions, type Logger } from 'typeorm';
import { nonNegativeInt, positiveInt } from './bench-env';
import { seededRandom } from './seeded-random';

const ROWS = 1_000_000;
const DEPTH = 900_000;
const LIMIT = 20;
/** The goal this benchmark reports against: a cursor page at depth costs at most this many times cursor page 1. */
const CURSOR_TARGET = 1.5;
const SAMPLES = positiveInt('BENCH_DEPTH_SAMPLES', 50);
const WARMUP = nonNegativeInt('BENCH_DEPTH_WARMUP', 5);
const WITH_COUNT = process.env['BENCH_DEPTH_COUNT'] !== '0';
const SQLITE_FILE = process.env['BENCH_DEPTH_SQLITE_FILE'] ?? join(tmpdir(), 'svc-bench-depth', 'rows.db');
const PG_SCHEMA = 'bench_depth';
const TABLE = 'bench_depth_rows';
const REPO_ROOT = join(__dirname, '..');
const STARTED = new Date();
const OUT =
  process.env['BENCH_DEPTH_OUT'] ??
  join(REPO_ROOT, 'docs', 'benchmarks', `benchmark-pagination-depth-${STARTED.toISOString().slice(0, 10)}.txt`);

@Entity(TABLE)
class DepthRow {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'int' }) price!: number;
  @Column({ type: 'date' }) createdOn!: string;
}

type DatabaseName = 'sqlite' | 'postgres';
type Strategy = 'offset' | 'cursor';

interface Variant {
  readonly strategy: Strategy;
  readonly count: boolean;
  readonly path: string;
}

const VARIANTS: readonly Variant[] = [
  { strategy: 'offset', count: false, path: '/offset-rows' },
  { strategy: 'cursor', count: false, path: '/cursor-rows' },
  ...(WITH_COUNT
    ? [
        { strategy: 'offset', count: true, path: '/offset-rows-counted' } as const,
        { strategy: 'cursor', count: true, path: '/cursor-rows-counted' } as const,
      ]
    : []),
];

/** One timed request: a variant at page 1 or at depth. */
interface Case {
  readonly variant: Variant;
  readonly depth: boolean;
  readonly url: string;
  /** The id of the first row the page must start with. */
  readonly firstId: number;
  samples: number[];
  failed?: string;
  statements?: readonly Statement[];
  plan?: readonly string[];
}

interface Statement {
  readonly query: string;
  readonly parameters: readonly unknown[];
}

/** A TypeORM logger that keeps the statements sent while `recording` is set (transaction control excluded). */
class StatementLog implements Logger {
  recording: Statement[] | undefined;
  logQuery(query: string, parameters?: unknown[]): void {
    if (/^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)/i.test(query)) return;
    this.recording?.push({ query, parameters: parameters ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/** A fresh controller class carrying `@Svc(DepthRow, ...)`: one per variant and app. */
function svcController(variant: Variant): Type {
  const config: EntityConfig = {
    pagination: { strategy: variant.strategy, count: variant.count },
    sort: { fields: ['id'], default: ['id'] },
  };
  @Svc(DepthRow, config)
  @Controller(variant.path.slice(1))
  class DepthRowsController {}
  Object.defineProperty(DepthRowsController, 'name', { value: `DepthRows${variant.path.replace(/\W/g, '')}` });
  return DepthRowsController;
}

@Module({})
class DepthBenchModule {
  static forDataSource(options: DataSourceOptions): DynamicModule {
    return {
      module: DepthBenchModule,
      imports: [TypeOrmModule.forRoot(options), SvcModule.forRoot({ infrastructure: typeorm() })],
      controllers: VARIANTS.map(svcController),
    };
  }
}

const report: string[] = [];
function out(line = ''): void {
  console.log(line);
  report.push(line);
}

function dataSourceOptions(db: DatabaseName, url: string | undefined, logger?: Logger): DataSourceOptions {
  const common = { entities: [DepthRow], synchronize: false, logging: false, ...(logger ? { logger } : {}) };
  if (db === 'sqlite') return { type: 'better-sqlite3', database: SQLITE_FILE, enableWAL: true, ...common };
  return { type: 'postgres', url, schema: PG_SCHEMA, ...common };
}

const qualifiedTable = (db: DatabaseName): string => (db === 'sqlite' ? `"${TABLE}"` : `"${PG_SCHEMA}"."${TABLE}"`);

/** Creates and seeds the table unless it already holds exactly ids 1 ... ROWS. */
async function prepareTable(db: DatabaseName, url: string | undefined): Promise<void> {
  if (db === 'sqlite') mkdirSync(dirname(SQLITE_FILE), { recursive: true });
  const dataSource = await new DataSource(dataSourceOptions(db, url)).initialize();
  try {
    if (db === 'postgres') await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${PG_SCHEMA}"`);
    const table = qualifiedTable(db);
    const state = await dataSource
      .query(`SELECT COUNT(*) AS n, MIN("id") AS lo, MAX("id") AS hi FROM ${table}`)
      .then((rows: Array<{ n: unknown; lo: unknown; hi: unknown }>) => rows[0])
      .catch(() => undefined);
    if (state && Number(state.n) === ROWS && Number(state.lo) === 1 && Number(state.hi) === ROWS) {
      out(`  reusing ${table}: ${fmtInt(ROWS)} rows`);
      return;
    }
    const started = performance.now();
    await dataSource.query(`DROP TABLE IF EXISTS ${table}`);
    await dataSource.synchronize();
    if (db === 'sqlite') await seedSqlite(dataSource, table);
    else await seedPostgres(dataSource, table);
    out(`  seeded ${table}: ${fmtInt(ROWS)} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await dataSource.destroy();
  }
}

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2020, 0, 1);
const rowTitle = (id: number): string => `Row ${String(id).padStart(7, '0')}`;
const rowPrice = (id: number): number => (id * 37) % 10_000;
const rowDate = (id: number): string => new Date(EPOCH + (id % 2000) * DAY_MS).toISOString().slice(0, 10);

/** Multi-row INSERTs of 5,000 rows (literal integers and generated strings only), all in one transaction. */
async function seedSqlite(dataSource: DataSource, table: string): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.startTransaction();
  try {
    for (let start = 1; start <= ROWS; start += 5000) {
      const values: string[] = [];
      for (let id = start; id < Math.min(start + 5000, ROWS + 1); id++) {
        values.push(`(${id}, '${rowTitle(id)}', ${rowPrice(id)}, '${rowDate(id)}')`);
      }
      await runner.query(`INSERT INTO ${table} ("id", "title", "price", "createdOn") VALUES ${values.join(', ')}`);
    }
    await runner.commitTransaction();
  } catch (error) {
    await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}

/** One INSERT ... SELECT over generate_series (the same values as on SQLite), then VACUUM ANALYZE. */
async function seedPostgres(dataSource: DataSource, table: string): Promise<void> {
  await dataSource.query(
    `INSERT INTO ${table} ("id", "title", "price", "createdOn")
     SELECT g, 'Row ' || lpad(g::text, 7, '0'), (g * 37) % 10000, DATE '2020-01-01' + (g % 2000)
     FROM generate_series(1, ${ROWS}) AS g`,
  );
  await dataSource.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), ${ROWS})`);
  await dataSource.query(`VACUUM ANALYZE ${table}`);
}

interface Page {
  items?: Array<{ id: number }>;
  total?: number | null;
  meta?: { nextCursor?: string | null };
}

async function getPage(base: string, path: string): Promise<{ status: number; body: Page }> {
  const response = await fetch(base + path);
  const text = await response.text();
  let body: Page = {};
  try {
    body = JSON.parse(text) as Page;
  } catch {
    // left empty: the checks below report it
  }
  return { status: response.status, body };
}

/** The token `writeCursor` (packages/core/src/pagination/cursor-pagination-strategy.ts) issues for a boundary id. */
function handBuiltCursor(id: number): string {
  return Buffer.from(JSON.stringify({ s: 'id:asc', v: [id] }), 'utf8').toString('base64url');
}

/**
 * The cursor for the boundary row id DEPTH, as Svc issues it: the nextCursor of the cursor page whose last row is
 * id DEPTH, reached with `filter[id][gte]` (a filter is not part of the cursor, only the sort is).
 */
async function cursorAtDepth(base: string): Promise<string> {
  const { status, body } = await getPage(base, `/cursor-rows?limit=${LIMIT}&filter[id][gte]=${DEPTH - LIMIT + 1}`);
  const ids = body.items?.map((item) => item.id) ?? [];
  const token = body.meta?.nextCursor;
  if (status !== 200 || ids[ids.length - 1] !== DEPTH || typeof token !== 'string') {
    throw new Error(`could not obtain the cursor at id ${DEPTH}: status ${status}, last id ${ids[ids.length - 1]}`);
  }
  const expected = handBuiltCursor(DEPTH);
  out(
    `  cursor at id ${fmtInt(DEPTH)}: ${token} (Svc's nextCursor of /cursor-rows?filter[id][gte]=${DEPTH - LIMIT + 1})`,
  );
  out(
    token === expected
      ? `    = base64url of {"s":"id:asc","v":[${DEPTH}]}, the token built by hand the way writeCursor builds it`
      : `    (!) differs from the hand-built token ${expected}; using Svc's own`,
  );
  return token;
}

/** Sends the case once with the statements recorded and checks the page: the right rows, total, statement count. */
async function checkCase(base: string, item: Case, log: StatementLog): Promise<void> {
  log.recording = [];
  const { status, body } = await getPage(base, item.url);
  const statements = log.recording;
  log.recording = undefined;
  item.statements = statements;
  const ids = body.items?.map((row) => row.id) ?? [];
  const expectedIds = Array.from({ length: LIMIT }, (_, i) => item.firstId + i);
  const problems: string[] = [];
  if (status !== 200) problems.push(`status ${status}`);
  if (ids.join() !== expectedIds.join()) problems.push(`ids ${ids[0]}...${ids[ids.length - 1]} (${ids.length})`);
  const expectedTotal = item.variant.count ? ROWS : null;
  if ((body.total ?? null) !== expectedTotal) problems.push(`total ${body.total}, expected ${expectedTotal}`);
  const expectedStatements = item.variant.count ? 2 : 1;
  if (statements.length !== expectedStatements) {
    problems.push(`${statements.length} statements, expected ${expectedStatements}`);
  }
  if (item.variant.strategy === 'cursor' && typeof body.meta?.nextCursor !== 'string') problems.push('no nextCursor');
  if (problems.length) item.failed = problems.join('; ');
}

/** The database's plan for the rows statement of a depth case. */
async function planOf(dataSource: DataSource, db: DatabaseName, statement: Statement): Promise<string[]> {
  if (db === 'sqlite') {
    const rows = (await dataSource.query(`EXPLAIN QUERY PLAN ${statement.query}`, [...statement.parameters])) as Array<{
      detail: string;
    }>;
    return rows.map((row) => row.detail);
  }
  const rows = (await dataSource.query(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) ${statement.query}`, [
    ...statement.parameters,
  ])) as Array<Record<string, string>>;
  return rows.map((row) => Object.values(row)[0] ?? '');
}

async function benchDatabase(db: DatabaseName, url: string | undefined): Promise<Case[]> {
  out(`\n== ${db}${db === 'sqlite' ? ` (file ${SQLITE_FILE})` : ` (table "${PG_SCHEMA}"."${TABLE}")`} ==`);
  await prepareTable(db, url);
  const log = new StatementLog();
  const app: INestApplication = await NestFactory.create(
    DepthBenchModule.forDataSource(dataSourceOptions(db, url, log)) as unknown as Type,
    { logger: ['error', 'warn'] },
  );
  try {
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const cursor = await cursorAtDepth(base);
    const cases: Case[] = VARIANTS.flatMap((variant) => [
      { variant, depth: false, url: `${variant.path}?limit=${LIMIT}`, firstId: 1, samples: [] },
      {
        variant,
        depth: true,
        url:
          variant.strategy === 'offset'
            ? `${variant.path}?limit=${LIMIT}&offset=${DEPTH}`
            : `${variant.path}?limit=${LIMIT}&cursor=${cursor}`,
        firstId: DEPTH + 1,
        samples: [],
      },
    ]);
    for (const item of cases) {
      await checkCase(base, item, log);
      if (item.failed) out(`  (!) ${caseName(item)}: check failed: ${item.failed}; not timed`);
    }
    const dataSource = app.get(DataSource);
    out(`  SQL of each rows statement (checked: ${LIMIT} rows from the expected id, total, statements per request):`);
    for (const item of cases.filter((c) => !c.variant.count && !c.failed)) {
      const rows = item.statements?.[0];
      if (!rows) continue;
      out(
        `    ${caseName(item)}: ${oneLine(rows.query)}${rows.parameters.length ? `  -- ${JSON.stringify(rows.parameters)}` : ''}`,
      );
      if (item.depth) {
        item.plan = await planOf(dataSource, db, rows);
        for (const line of item.plan) out(`      plan: ${line.trim()}`);
      }
    }
    const timed = cases.filter((c) => !c.failed);
    // Every round sends each case once, in a new shuffled order (seeded, so every run repeats it): drift hits all
    // cases alike, and no case always runs right after the same one (in a fixed rotation, the request after the slow
    // offset page measured slower).
    const random = seededRandom(0x5eed);
    const started = performance.now();
    for (let round = 0; round < WARMUP + SAMPLES; round++) {
      for (const item of shuffled(timed, random)) {
        const t0 = performance.now();
        const response = await fetch(base + item.url);
        await response.text();
        const elapsed = performance.now() - t0;
        if (response.status !== 200) item.failed ??= `status ${response.status} during timing`;
        if (round >= WARMUP) item.samples.push(elapsed);
      }
    }
    out(
      `  timed ${timed.length} cases x ${SAMPLES} requests after ${WARMUP} warm-up rounds in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    printCases(db, cases);
    return cases;
  } finally {
    await app.close();
  }
}

const caseName = (item: Case): string =>
  `${item.variant.strategy}${item.variant.count ? ' + count' : ''} ${item.depth ? `depth ${fmtInt(DEPTH)}` : 'page 1'}`;

function printCases(db: DatabaseName, cases: readonly Case[]): void {
  out(`\n${db}: ${SAMPLES} sequential requests per case (limit ${LIMIT}, sort id asc), ms`);
  grid(
    ['case', 'url', 'median', 'p95', 'min', 'max'],
    cases.map((item) => {
      const s = item.samples;
      return [
        caseName(item) + (item.failed ? ' (!)' : ''),
        item.url.length > 48 ? `${item.url.slice(0, 45)}...` : item.url,
        ms(median(s)),
        ms(percentile(s, 0.95)),
        ms(s.length ? Math.min(...s) : NaN),
        ms(s.length ? Math.max(...s) : NaN),
      ];
    }),
  );
}

/** The summary: one row per database, strategy and count setting. */
function printSummary(results: ReadonlyArray<readonly [DatabaseName, readonly Case[]]>): void {
  out(
    `\nSummary: median / p95 ms of ${SAMPLES} sequential requests; depth = the ${LIMIT} rows after id ${fmtInt(DEPTH)} of ${fmtInt(ROWS)}`,
  );
  const lines: string[][] = [];
  for (const [db, cases] of results) {
    for (const variant of VARIANTS) {
      const first = cases.find((c) => c.variant === variant && !c.depth);
      const deep = cases.find((c) => c.variant === variant && c.depth);
      if (!first || !deep) continue;
      const ratio = median(deep.samples) / median(first.samples);
      const target =
        variant.strategy === 'cursor' && !variant.count
          ? ratio <= CURSOR_TARGET
            ? `met (<= ${CURSOR_TARGET}x)`
            : `MISSED (> ${CURSOR_TARGET}x)`
          : '';
      lines.push([
        db,
        variant.strategy,
        variant.count ? 'on' : 'off',
        `${ms(median(first.samples))} / ${ms(percentile(first.samples, 0.95))}`,
        `${ms(median(deep.samples))} / ${ms(percentile(deep.samples, 0.95))}`,
        Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '-',
        target + (first.failed || deep.failed ? ' (!) check failed' : ''),
      ]);
    }
  }
  grid(['database', 'strategy', 'count', 'page 1', `depth ${fmtInt(DEPTH)}`, 'depth / page 1', 'target'], lines);
  out(`Target: cursor (count off) at depth within ${CURSOR_TARGET}x of cursor page 1 (ratio of the medians).`);
}

function grid(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const render = (row: readonly string[]) =>
    row.map((cell, i) => (i === 0 || i === 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  out(render(header));
  out(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) out(render(row));
}

/** A Fisher-Yates shuffled copy. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** Nearest-rank percentile; NaN when there are no values. */
function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '-');
const fmtInt = (n: number): string => n.toLocaleString('en-US');
const oneLine = (sql: string): string => sql.replace(/\s+/g, ' ').trim();

function gitState(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', 'packages') ? ' (packages/ has uncommitted changes)' : '';
    return `${git('rev-parse', 'HEAD')}${dirty}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function main(): Promise<void> {
  const url = process.env['BENCH_DATABASE_URL'];
  out(`# Svc pagination depth benchmark, ${STARTED.toISOString()}`);
  out(`# Code: commit ${gitState()}`);
  out(
    `# node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  out(
    `# ${fmtInt(ROWS)} rows; limit ${LIMIT}; depth ${fmtInt(DEPTH)}; ${WARMUP} warm-up rounds, ${SAMPLES} timed ` +
      `requests per case, sequential, each round in a shuffled order; in-process fetch to app.listen(0)`,
  );
  out(`# PostgreSQL: ${url ? url.replace(/\/\/[^@/]*@/, '//***@') : 'skipped (BENCH_DATABASE_URL is not set)'}`);
  const results: Array<readonly [DatabaseName, Case[]]> = [];
  const databases: DatabaseName[] = url ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const db of databases) results.push([db, await benchDatabase(db, url)]);
  printSummary(results);
  out(
    `\nload average at the end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  if (results.some(([, cases]) => cases.some((c) => c.failed))) process.exitCode = 1;
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${report.join('\n')}\n`);
  const shown = relative(process.cwd(), OUT);
  console.log(`\nwritten to ${shown && !shown.startsWith('..') ? shown : OUT}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
