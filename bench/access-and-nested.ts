/**
 * Access per role and nested writes, measured.
 *
 * 1. Access: the same page, `GET /books?limit=20`, asked by a caller with no role (the entity as everyone gets it),
 *    by an admin (a role whose rule narrows nothing) and by a reader (a rule that hides a column), against one server
 *    over 2,000 books. The server runs in a child process (this file, argument `serve`); autocannon drives it from
 *    this one, and each round asks the three callers in turn, rotating the order. Prints the median req/s and p99 of
 *    each, and each one's rate against the caller with no role.
 * 2. Nested writes: the statements one `POST /books` sends when it creates a book with a new author, N tags by
 *    connect-or-create (half of them existing) and N reviews, for N = 1, 10 and 50, counted by a TypeORM logger, with
 *    the round trips (transaction control included). Set-based writes keep the count flat as N grows.
 *
 * SQLite (a temp file); BENCH_DATABASE_URL=postgres://... runs part 2 on PostgreSQL too. BENCH_ROUNDS (default 3),
 * BENCH_DURATION (seconds per run, default 5), BENCH_CONNECTIONS (default 10). Prints figures; never fails on speed.
 *
 *   pnpm bench:access
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { Controller, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { EntityConfig } from '@svc/core';
import { Svc, SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { StatementCounter } from '../test/support/statement-counter';
import {
  ACCESS_ENTITIES,
  AcAuthor,
  AcBook,
  AUTHOR_CONFIG as ACCESS_AUTHOR_CONFIG,
  BOOK_CONFIG as ACCESS_BOOK_CONFIG,
} from '../test/e2e/support/access-fixtures';
import {
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  NESTED_ENTITIES,
  NwAuthor,
  NwBook,
  NwReview,
  NwTag,
  REVIEW_CONFIG,
  TAG_CONFIG,
} from '../test/e2e/support/nested-fixtures';
import { positiveInt } from './bench-env';

const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const DURATION = positiveInt('BENCH_DURATION', 5);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const BOOKS = 2000;

/** The callers of part 1: their headers. */
const CALLERS: readonly { readonly name: string; readonly headers: Record<string, string> }[] = [
  { name: 'no role', headers: { 'x-tenant': 'a' } },
  { name: 'admin (a rule narrowing nothing)', headers: { 'x-tenant': 'a', 'x-role': 'admin' } },
  { name: 'reader (a rule hiding a column)', headers: { 'x-tenant': 'a', 'x-role': 'reader' } },
];

function appModule(options: DataSourceOptions, controllers: Function[]): DynamicModule {
  @Module({})
  class BenchModule {}
  return {
    module: BenchModule,
    imports: [TypeOrmModule.forRoot(options), SvcModule.forRoot({ infrastructure: typeorm() })],
    controllers: controllers as never[],
  };
}

function controller(path: string, entity: Function, config: EntityConfig): Function {
  @Svc(entity, config)
  @Controller(path)
  class BenchController {}
  Object.defineProperty(BenchController, 'name', { value: `${entity.name}BenchController` });
  return BenchController;
}

// ---------------------------------------------------------------------------------------------------------------
// Part 1, the server process
// ---------------------------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  const database = join(mkdtempSync(join(tmpdir(), 'svc-bench-access-')), 'bench.sqlite');
  const options: DataSourceOptions = { type: 'better-sqlite3', database, entities: ACCESS_ENTITIES, synchronize: true };
  const app = await NestFactory.create(
    appModule(options, [
      controller('books', AcBook, ACCESS_BOOK_CONFIG),
      controller('authors', AcAuthor, ACCESS_AUTHOR_CONFIG),
    ]),
    { logger: false },
  );
  const dataSource = app.get(DataSource);
  const author = await dataSource.getRepository(AcAuthor).save({ tenant: 'a', name: 'Ann', email: 'ann@a.test' });
  const rows = Array.from({ length: BOOKS }, (_, i) => ({
    tenant: i % 2 === 0 ? 'a' : 'b',
    title: `Book ${i}`,
    price: 10 + (i % 90),
    cost: 5 + (i % 40),
    authorId: author.id,
  }));
  for (let i = 0; i < rows.length; i += 200) await dataSource.getRepository(AcBook).insert(rows.slice(i, i + 200));
  await app.listen(0, '127.0.0.1');
  process.send!({ port: (app.getHttpServer().address() as AddressInfo).port });
}

// ---------------------------------------------------------------------------------------------------------------
// Part 1, the load
// ---------------------------------------------------------------------------------------------------------------

interface Run {
  readonly rate: number;
  readonly p99: number;
}

async function load(port: number, headers: Record<string, string>, seconds: number): Promise<Run> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', path: '/books?limit=20', headers }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rate: result.requests.average, p99: result.latency.p99 };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measureAccess(): Promise<void> {
  const child = fork(__filename, ['serve'], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: { port: number }) => resolve(message.port));
      child.once('exit', (code) => reject(new Error(`the server exited (${String(code)})`)));
    });
    for (const caller of CALLERS) await load(port, caller.headers, 1); // warm-up
    const runs = new Map<string, Run[]>(CALLERS.map((caller) => [caller.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = CALLERS.map((_, i) => CALLERS[(i + round) % CALLERS.length]!);
      for (const caller of order) {
        const run = await load(port, caller.headers, DURATION);
        runs.get(caller.name)!.push(run);
        console.log(
          `round ${round + 1}  ${caller.name.padEnd(34)} ${run.rate.toFixed(0).padStart(6)} req/s  p99 ${run.p99} ms`,
        );
      }
    }
    const base = median(runs.get(CALLERS[0]!.name)!.map((run) => run.rate));
    console.log(
      `\nGET /books?limit=20 over ${BOOKS} books (SQLite), ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections:`,
    );
    console.log('| caller | req/s (median) | p99 ms (median) | vs no role |\n|---|---|---|---|');
    for (const caller of CALLERS) {
      const list = runs.get(caller.name)!;
      const rate = median(list.map((run) => run.rate));
      const p99 = median(list.map((run) => run.p99));
      console.log(`| ${caller.name} | ${rate.toFixed(0)} | ${p99} | ${((rate / base) * 100).toFixed(1)}% |`);
    }
  } finally {
    child.kill();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Part 2: statements of a nested write
// ---------------------------------------------------------------------------------------------------------------

async function countNested(name: string, options: DataSourceOptions): Promise<void> {
  const counter = new StatementCounter();
  const bookConfig: EntityConfig<NwBook> = {
    ...BOOK_CONFIG,
    relations: {
      author: { write: { nested: { create: true, connect: true } } },
      tags: { write: { nested: { create: true, connect: true, connectOrCreate: ['name'] }, maxMembers: 100 } },
      reviews: { write: { nested: { create: true }, maxMembers: 100 } },
    },
  };
  const app = await NestFactory.create(
    appModule(
      { ...options, entities: NESTED_ENTITIES, synchronize: true, dropSchema: true, logger: counter, logging: true },
      [
        controller('books', NwBook, bookConfig),
        controller('authors', NwAuthor, AUTHOR_CONFIG),
        controller('tags', NwTag, TAG_CONFIG),
        controller('reviews', NwReview, REVIEW_CONFIG),
      ],
    ),
    { logger: false },
  );
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  try {
    console.log(
      `\nStatements of one nested POST /books on ${name} (a new author, N tags by connect-or-create, half existing, N reviews):`,
    );
    console.log('| N | rows written | statements | round trips |\n|---|---|---|---|');
    for (const n of [1, 10, 50]) {
      const existing = Array.from({ length: Math.floor(n / 2) }, (_, i) => ({ tenant: 'a', name: `n${n}-old-${i}` }));
      if (existing.length > 0) await app.get(DataSource).getRepository(NwTag).insert(existing);
      const body = {
        title: `N ${n}`,
        author: { create: { name: `Author ${n}` } },
        tags: Array.from({ length: n }, (_, i) => ({
          connectOrCreate: { where: { name: i < existing.length ? `n${n}-old-${i}` : `n${n}-new-${i}` }, create: {} },
        })),
        reviews: Array.from({ length: n }, (_, i) => ({ create: { rating: 1 + (i % 5) } })),
      };
      const before = { count: counter.count, trips: counter.roundTrips };
      const res = await fetch(`http://127.0.0.1:${port}/books`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tenant': 'a' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST /books answered ${res.status}: ${await res.text()}`);
      const rows = 2 + (n - existing.length) + n + n; // book, author, new tags, reviews, and a tag link each
      console.log(`| ${n} | ${rows} | ${counter.count - before.count} | ${counter.roundTrips - before.trips} |`);
    }
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'serve') return serve();
  // BENCH_PARTS=access or BENCH_PARTS=nested runs one part.
  const parts = (process.env['BENCH_PARTS'] ?? 'access,nested').split(',');
  if (parts.includes('access')) await measureAccess();
  if (!parts.includes('nested')) return;
  const sqlite = join(mkdtempSync(join(tmpdir(), 'svc-bench-nested-')), 'bench.sqlite');
  await countNested('SQLite', { type: 'better-sqlite3', database: sqlite });
  const url = process.env['BENCH_DATABASE_URL'];
  if (url?.startsWith('postgres')) {
    // A schema of its own, dropped and made again, so the bench never touches another suite's tables.
    const admin = new DataSource({ type: 'postgres', url });
    await admin.initialize();
    await admin.query('DROP SCHEMA IF EXISTS svc_bench_nested CASCADE');
    await admin.query('CREATE SCHEMA svc_bench_nested');
    await admin.destroy();
    await countNested('PostgreSQL', { type: 'postgres', url, schema: 'svc_bench_nested' });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
