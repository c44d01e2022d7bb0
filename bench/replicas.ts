/**
 * Reads with one primary and one streaming replica against the primary alone: a PostgreSQL primary and replica are
 * started from the machine's binaries (test/support/replica-servers), two Svc apps serve the same books in this
 * process, one on the primary alone and one with `replication`, and autocannon drives a mix of list and by-id reads,
 * then the same mix with one write in ten by the same callers (read-your-writes at work). Prints reads per second, the
 * share of reads each server ran (pg_stat_statements) and the routing's overhead per request (the mean latency of the
 * replicated app against the primary-only one). Never fails because something is slow.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Svc, SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import type { AddressInfo } from 'node:net';
import { Column, DataSource, Entity, PrimaryGeneratedColumn, type DataSourceOptions } from 'typeorm';
import { postgresBinaries, startReplicaServers } from '../test/support/replica-servers';
import { positiveInt } from './bench-env';

const DURATION = positiveInt('BENCH_DURATION', 5);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const BOOKS = 2000;

@Entity('bench_replica_book')
class ReplicaBook {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column()
  title!: string;

  @Column()
  pages!: number;
}

@Svc(ReplicaBook, { schema: { input: { update: ['pages'] } } })
@Controller('books')
class ReplicaBooksController {}

async function serve(dataSource: DataSourceOptions): Promise<{ app: INestApplication; url: string }> {
  @Module({
    imports: [TypeOrmModule.forRoot(dataSource), SvcModule.forRoot({ infrastructure: typeorm() })],
    controllers: [ReplicaBooksController],
  })
  class BenchModule {}
  const app = await NestFactory.create(BenchModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

interface Figures {
  readonly requests: number;
  readonly total: number;
  readonly latencyMs: number;
  readonly errors: number;
}

async function drive(url: string, writes: boolean, duration = DURATION): Promise<Figures> {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          n++;
          const id = (n % BOOKS) + 1;
          // One caller per connection-sized bucket, so a caller's own write is followed by its reads.
          const headers = { ...request.headers, 'content-type': 'application/json' };
          if (writes && n % 10 === 0)
            return { ...request, method: 'PATCH', path: `/books/${id}`, headers, body: JSON.stringify({ pages: n }) };
          return {
            ...request,
            method: 'GET',
            path: n % 2 === 0 ? `/books?limit=20&offset=${id % 500}` : `/books/${id}`,
            headers,
          };
        },
      },
    ],
  });
  return {
    requests: result.requests.average,
    total: result.requests.total,
    latencyMs: result.latency.average,
    errors: result.non2xx + result.errors,
  };
}

async function main(): Promise<void> {
  if (!postgresBinaries()) {
    console.log('bench:replicas: no PostgreSQL binaries under /usr/lib/postgresql/<major>/bin; nothing measured.');
    return;
  }
  const servers = await startReplicaServers();
  try {
    const base = { type: 'postgres' as const, entities: [ReplicaBook], logging: false };
    const primaryOnly = await serve({ ...base, url: servers.primaryUrl, synchronize: true });
    // The primary-only app's DataSource seeds both: the replica streams the rows.
    await primaryOnly.app
      .get(DataSource)
      .query(
        `INSERT INTO bench_replica_book (title, pages) SELECT 'Book ' || n, n % 900 + 50 FROM generate_series(1, ${BOOKS}) n`,
      );
    await servers.caughtUp();
    const replicated = await serve({
      ...base,
      replication: { master: { url: servers.primaryUrl }, slaves: [{ url: servers.replicaUrl }] },
    });
    console.log(`bench:replicas: ${CONNECTIONS} connections, ${DURATION} s per run, ${BOOKS} books`);
    // Warmed up alike (the JIT, the pools), so the first timed run is not the slower for it.
    await Promise.all([drive(primaryOnly.url, false, 2), drive(replicated.url, false, 2)]);
    for (const writes of [false, true]) {
      const mix = writes ? 'reads + 1 write in 10' : 'reads only';
      const alone = await drive(primaryOnly.url, writes);
      const shareBefore = await shares();
      const both = await drive(replicated.url, writes);
      const shareAfter = await shares();
      const onReplica = shareAfter.replica - shareBefore.replica;
      const onPrimary = shareAfter.primary - shareBefore.primary;
      console.log(
        `${mix.padEnd(22)} primary alone: ${alone.requests.toFixed(0)} req/s (${alone.latencyMs.toFixed(2)} ms mean)` +
          ` | primary + replica: ${both.requests.toFixed(0)} req/s (${both.latencyMs.toFixed(2)} ms mean),` +
          ` ${((100 * onReplica) / Math.max(1, onReplica + onPrimary)).toFixed(1)}% of SELECTs on the replica` +
          ` | latency difference ${((both.latencyMs - alone.latencyMs) * 1000).toFixed(0)} µs per request,` +
          ` ${((shareAfter.checks - shareBefore.checks) / Math.max(1, both.total)).toFixed(3)} routing statements per request` +
          ` | non-2xx: ${alone.errors} / ${both.errors}`,
      );
    }
    await Promise.all([primaryOnly.app.close(), replicated.app.close()]);
  } finally {
    await servers.stop();
  }

  /** SELECTs of the books per server, and the router's own statements (write positions, replay positions). */
  async function shares(): Promise<{ primary: number; replica: number; checks: number }> {
    const [primary, replica, written, replayed] = await Promise.all([
      servers.selectsOn('primary', 'bench_replica_book'),
      servers.selectsOn('replica', 'bench_replica_book'),
      servers.selectsOn('primary', 'pg_current_wal_lsn()::text'),
      servers.selectsOn('replica', 'pg_last_wal_replay_lsn(), pg_current_wal_lsn'),
    ]);
    return { primary, replica, checks: written + replayed };
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
