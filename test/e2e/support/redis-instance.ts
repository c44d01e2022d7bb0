/**
 * One app instance of the Redis scale-out suites, run as a child process: the database from SVC_REDIS_TEST_DATASOURCE
 * (JSON DataSource options, schema already made), Redis at SVC_REDIS_TEST_URL with the key prefix SVC_REDIS_TEST_PREFIX
 * (unique per run). It listens on an ephemeral port and prints `listening <port>`; Redis outages and recoveries are
 * written to stderr as `redis-error: ...` and `redis-recover: ...` lines, so the suites can count them. The benchmark
 * sets SVC_REDIS_TEST_CACHE to `memory` (the in-process store) or `off` (authors uncached) to compare with `redis`.
 */
import 'reflect-metadata';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Svc, SvcModule } from '@svc/nestjs';
import { redisCacheStore, redisRealtime } from '@svc/redis';
import { sse } from '@svc/sse';
import { typeorm } from '@svc/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { AUTHOR_CONFIG, NOTE_CONFIG, REDIS_ENTITIES, RdAuthor, RdNote, tenantOf } from './redis-fixtures';

@Svc(RdNote, NOTE_CONFIG)
@Controller('notes')
class NotesController {}

const CACHE = process.env['SVC_REDIS_TEST_CACHE'] ?? 'redis';

@Svc(RdAuthor, CACHE === 'off' ? { cache: { ttl: false } } : AUTHOR_CONFIG)
@Controller('authors')
class AuthorsController {}

async function main(): Promise<void> {
  const options = JSON.parse(process.env['SVC_REDIS_TEST_DATASOURCE'] ?? '{}') as DataSourceOptions;
  const url = process.env['SVC_REDIS_TEST_URL'] ?? '';
  const keyPrefix = process.env['SVC_REDIS_TEST_PREFIX'] ?? 'svc-test:';
  const report = (part: string) => ({
    onError: (error: Error) => process.stderr.write(`redis-error: ${part}: ${error.message}\n`),
    onRecover: (message: string) => process.stderr.write(`redis-recover: ${part}: ${message}\n`),
  });
  @Module({
    imports: [
      TypeOrmModule.forRoot({ ...options, entities: REDIS_ENTITIES, synchronize: false } as DataSourceOptions),
      SvcModule.forRoot({
        infrastructure: typeorm(),
        ...(CACHE === 'redis' ? { cacheStore: redisCacheStore({ url }, { keyPrefix, ...report('cache') }) } : {}),
        cacheKey: tenantOf,
        realtimeTransports: [
          sse({ heartbeatMs: 1000, log: redisRealtime({ url }, { keyPrefix, blockMs: 1000, ...report('realtime') }) }),
        ],
      }),
    ],
    controllers: [NotesController, AuthorsController],
  })
  class InstanceModule {}
  const app = await NestFactory.create(InstanceModule, { logger: ['error'] });
  app.enableShutdownHooks();
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
