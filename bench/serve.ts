/**
 * The server process: boots the Svc app and the hand-written app (BENCH_APPS, default both) over the same database,
 * each on its own port, and reports the ports to the parent (`bench/run.ts`) over IPC.
 *
 * BENCH_TRACING sets how Svc traces: `api` (the default: spans asked of the OpenTelemetry API, with no SDK), `off`
 * (`tracing: false`) or `sdk` (an SDK registered in this process, batching every span to an exporter that drops it:
 * the cost of recording spans, without the cost of sending them anywhere). The hand-written app has no spans in any
 * of them, so its figures are the control between runs.
 */
import 'reflect-metadata';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import type { AddressInfo } from 'node:net';
import { benchDataSourceOptions, type BenchDatabase } from './database';
import { BenchBook } from './entities';
import {
  HANDWRITTEN_DATA_SOURCE,
  HandwrittenBooksController,
  HandwrittenCustomBooksController,
} from './handwritten-books.controller';
import {
  SvcAuthorsController,
  SvcBooksController,
  SvcCachedBooksController,
  SvcCustomBooksController,
} from './svc-books.controller';

export type BenchAppName = 'svc' | 'handwritten';

export type ServerMessage =
  { type: 'ready'; ports: Partial<Record<BenchAppName, number>> } | { type: 'error'; message: string };

const TRACING = process.env['BENCH_TRACING'] ?? 'api';
if (!['api', 'off', 'sdk'].includes(TRACING)) throw new Error(`BENCH_TRACING must be api, off or sdk; got ${TRACING}`);

/** Takes every batch of spans and drops it. */
const DROP_SPANS: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

if (TRACING === 'sdk') {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(DROP_SPANS)] }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

@Module({})
class SvcBenchModule {
  static forDatabase(db: BenchDatabase): DynamicModule {
    return {
      module: SvcBenchModule,
      imports: [
        TypeOrmModule.forRoot(benchDataSourceOptions(db)),
        SvcModule.forRoot({ infrastructure: typeorm(), tracing: TRACING !== 'off' }),
      ],
      controllers: [SvcBooksController, SvcCachedBooksController, SvcAuthorsController, SvcCustomBooksController],
    };
  }
}

@Module({})
class HandwrittenBenchModule {
  static forDatabase(db: BenchDatabase): DynamicModule {
    return {
      module: HandwrittenBenchModule,
      // Named, so the two apps' data sources do not share @nestjs/typeorm's process-wide default name.
      imports: [
        TypeOrmModule.forRoot({ ...benchDataSourceOptions(db), name: HANDWRITTEN_DATA_SOURCE }),
        TypeOrmModule.forFeature([BenchBook], HANDWRITTEN_DATA_SOURCE),
      ],
      controllers: [HandwrittenBooksController, HandwrittenCustomBooksController],
    };
  }
}

const MODULES: Record<BenchAppName, { forDatabase(db: BenchDatabase): DynamicModule }> = {
  svc: SvcBenchModule,
  handwritten: HandwrittenBenchModule,
};

async function listen(module: DynamicModule): Promise<{ app: INestApplication; port: number }> {
  const app = await NestFactory.create(module as unknown as Type, { logger: ['error', 'warn'] });
  await app.listen(0, '127.0.0.1');
  return { app, port: (app.getHttpServer().address() as AddressInfo).port };
}

async function main(): Promise<void> {
  const db = JSON.parse(process.env['BENCH_DB'] ?? '') as BenchDatabase;
  const names = (process.env['BENCH_APPS'] ?? 'svc,handwritten').split(',') as BenchAppName[];
  const apps: INestApplication[] = [];
  const ports: Partial<Record<BenchAppName, number>> = {};
  for (const name of names) {
    const { app, port } = await listen(MODULES[name].forDatabase(db));
    apps.push(app);
    ports[name] = port;
  }
  process.on('message', (message) => {
    if (message !== 'stop') return;
    void Promise.all(apps.map((app) => app.close())).finally(() => process.exit(0));
  });
  process.send?.({ type: 'ready', ports } satisfies ServerMessage);
}

main().catch((error: unknown) => {
  process.send?.({
    type: 'error',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  } satisfies ServerMessage);
  process.exit(1);
});
