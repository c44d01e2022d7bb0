/**
 * The realtime bench's server process: the bench books with realtime off (`/books`) and on (`/live-books`, events
 * over SSE at `/live-books/events`), one app, over the bench database; reports its port to the parent over IPC.
 */
import 'reflect-metadata';
import { Controller, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Svc, SvcModule } from '@svc/nestjs';
import { sse } from '@svc/sse';
import { typeorm } from '@svc/typeorm';
import type { AddressInfo } from 'node:net';
import { benchDataSourceOptions, type BenchDatabase } from './database';
import { BenchBook } from './entities';

@Svc(BenchBook, {})
@Controller('books')
class QuietBooksController {}

@Svc(BenchBook, { realtime: {} })
@Controller('live-books')
class LiveBooksController {}

async function main(): Promise<void> {
  const db = JSON.parse(process.env['BENCH_DB'] ?? '') as BenchDatabase;
  @Module({
    imports: [
      TypeOrmModule.forRoot(benchDataSourceOptions(db)),
      SvcModule.forRoot({ infrastructure: typeorm(), realtimeTransports: [sse({ maxPending: 100_000 })] }),
    ],
    controllers: [QuietBooksController, LiveBooksController],
  })
  class RealtimeBenchModule {}
  const app = await NestFactory.create(RealtimeBenchModule as Type, { logger: ['error', 'warn'] });
  await app.listen(0, '127.0.0.1');
  process.send?.({ type: 'ready', port: (app.getHttpServer().address() as AddressInfo).port });
  process.on('message', (message) => {
    if (message === 'stop') void app.close().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.send?.({ type: 'error', message: String(error) });
  process.exit(1);
});
