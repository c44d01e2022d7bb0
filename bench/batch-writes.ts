/**
 * Batch writes: Svc's `createMany` of 100 books against 100 `POST /books` and against a hand-written
 * `repository.insert([...100])` route; Svc's `updateMany` of 100 rows against 100 `PATCH /books/:id` and a hand-written
 * `repository.update({ id: In(ids) }, dto)`. Rows per second (the median of BENCH_ROUNDS rounds, each app in turn), and
 * the statements each batch sends, per database (SQLite, and PostgreSQL when BENCH_DATABASE_URL is set).
 *
 * One process: the apps listen on their own ports and the client sends one request at a time (the loop a user writes
 * instead of a batch), so every figure carries the same client cost. Prints figures; never fails for a slow machine.
 */
import 'reflect-metadata';
import { Body, Controller, Module, Patch, Post, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { Svc, SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { In, type Repository } from 'typeorm';
import { StatementCounter } from '../test/support/statement-counter';
import { benchDataSourceOptions, seedBenchDatabase, sqliteBenchDatabase, type BenchDatabase } from './database';
import { BenchBook } from './entities';
import { positiveInt } from './bench-env';

const ROUNDS = positiveInt('BENCH_ROUNDS', 5);
const BATCH = 100;
/** Batches per round (and so BATCHES × 100 rows per round and app). */
const BATCHES = positiveInt('BENCH_BATCHES', 10);
const HANDWRITTEN = 'handwritten_batch';

@Svc(BenchBook, { batch: { create: true, update: true, delete: true, maxItems: BATCH, maxAffected: BATCH } })
@Controller('books')
class SvcBatchBooksController {}

/** The lean hand-written batch: one `insert` of the DTOs, answered as sent; one `update` by ids. */
@Controller('books')
class HandwrittenBatchBooksController {
  constructor(@InjectRepository(BenchBook, HANDWRITTEN) private readonly repo: Repository<BenchBook>) {}

  @Post('batch')
  async createMany(@Body() body: Partial<BenchBook>[]) {
    const result = await this.repo.insert(body);
    return { items: body.map((dto, i) => ({ ...dto, ...result.identifiers[i] })), total: body.length };
  }

  @Patch('batch')
  async updateMany(@Body() body: { ids: number[]; changes: Partial<BenchBook> }) {
    await this.repo.update({ id: In(body.ids) }, body.changes);
    return { total: body.ids.length };
  }
}

function svcModule(db: BenchDatabase, counter: StatementCounter): DynamicModule {
  @Module({})
  class SvcBatchModule {}
  return {
    module: SvcBatchModule,
    imports: [
      TypeOrmModule.forRoot({ ...benchDataSourceOptions(db), logging: ['query'], logger: counter }),
      SvcModule.forRoot({ infrastructure: typeorm() }),
    ],
    controllers: [SvcBatchBooksController],
  };
}

function handwrittenModule(db: BenchDatabase): DynamicModule {
  @Module({})
  class HandwrittenBatchModule {}
  return {
    module: HandwrittenBatchModule,
    imports: [
      TypeOrmModule.forRoot({ ...benchDataSourceOptions(db), name: HANDWRITTEN }),
      TypeOrmModule.forFeature([BenchBook], HANDWRITTEN),
    ],
    controllers: [HandwrittenBatchBooksController],
  };
}

async function listen(module: DynamicModule): Promise<{ app: INestApplication; base: string }> {
  const app = await NestFactory.create(module, { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

async function send(method: string, url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status}: ${await res.text()}`);
  return res.json();
}

let serial = 0;
const newBooks = (count: number) =>
  Array.from({ length: count }, () => ({ title: `Batch book ${++serial}`, pages: 100 + (serial % 500), authorId: 1 }));

/** Rows per second of `rows` rows written by `work`. */
async function rate(rows: number, work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return rows / ((performance.now() - started) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function benchDatabase(db: BenchDatabase): Promise<void> {
  await seedBenchDatabase(db, 1_000);
  const counter = new StatementCounter();
  const svc = await listen(svcModule(db, counter));
  const hand = await listen(handwrittenModule(db));
  try {
    // Warm both apps up.
    await send('POST', `${svc.base}/books/batch`, newBooks(BATCH));
    await send('POST', `${hand.base}/books/batch`, newBooks(BATCH));
    const figures: Record<string, number[]> = {};
    const record = (name: string, value: number) => (figures[name] ??= []).push(value);
    for (let round = 0; round < ROUNDS; round++) {
      const rows = BATCHES * BATCH;
      record(
        'svc createMany (POST /books/batch, 100 items)',
        await rate(rows, async () => {
          for (let i = 0; i < BATCHES; i++) await send('POST', `${svc.base}/books/batch`, newBooks(BATCH));
        }),
      );
      record(
        'svc createOne x 100 (POST /books)',
        await rate(BATCH * 2, async () => {
          for (const book of newBooks(BATCH * 2)) await send('POST', `${svc.base}/books`, book);
        }),
      );
      record(
        'hand-written repository.insert([...100])',
        await rate(rows, async () => {
          for (let i = 0; i < BATCHES; i++) await send('POST', `${hand.base}/books/batch`, newBooks(BATCH));
        }),
      );
      const created = (await send('POST', `${svc.base}/books/batch`, newBooks(BATCH))) as { items: { id: number }[] };
      const ids = created.items.map((item) => item.id);
      const [low, high] = [Math.min(...ids), Math.max(...ids)];
      record(
        'svc updateMany (PATCH /books?filter, 100 rows)',
        await rate(rows, async () => {
          for (let i = 0; i < BATCHES; i++) {
            await send('PATCH', `${svc.base}/books?filter[id][gte]=${low}&filter[id][lte]=${high}`, {
              pages: round + i,
            });
          }
        }),
      );
      record(
        'svc patchOne x 100 (PATCH /books/:id)',
        await rate(BATCH, async () => {
          for (const id of ids) await send('PATCH', `${svc.base}/books/${id}`, { pages: round });
        }),
      );
      record(
        'hand-written repository.update({ id: In(ids) })',
        await rate(rows, async () => {
          for (let i = 0; i < BATCHES; i++)
            await send('PATCH', `${hand.base}/books/batch`, { ids, changes: { pages: i } });
        }),
      );
    }
    console.log(`\n${db.name}: rows per second, median of ${ROUNDS} rounds (each ${BATCHES} batches of ${BATCH})`);
    for (const [name, values] of Object.entries(figures)) {
      console.log(`  ${name.padEnd(52)} ${Math.round(median(values)).toLocaleString('en-US').padStart(9)}`);
    }
    const create = await counter.during(() => send('POST', `${svc.base}/books/batch`, newBooks(BATCH)));
    const again = (await send('POST', `${svc.base}/books/batch`, newBooks(BATCH))) as { items: { id: number }[] };
    const [from, to] = [again.items[0]!.id, again.items[BATCH - 1]!.id];
    const update = await counter.during(() =>
      send('PATCH', `${svc.base}/books?filter[id][gte]=${from}&filter[id][lte]=${to}`, { pages: 7 }),
    );
    const remove = await counter.during(() =>
      send('DELETE', `${svc.base}/books?filter[id][gte]=${from}&filter[id][lte]=${to}`, undefined),
    );
    const one = await counter.during(() => send('POST', `${svc.base}/books`, newBooks(1)[0]));
    console.log(
      `  statements (transaction control left out): createMany of 100 ${create}, updateMany of 100 ${update}, ` +
        `deleteMany of 100 ${remove}; one createOne ${one}`,
    );
  } finally {
    await svc.app.close();
    await hand.app.close();
  }
}

async function main(): Promise<void> {
  console.log(`batch writes: node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`);
  await benchDatabase(sqliteBenchDatabase());
  const url = process.env['BENCH_DATABASE_URL'];
  if (url) await benchDatabase({ name: 'postgres', location: url });
  console.log(`\nload after: ${loadavg()[0]!.toFixed(2)}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
