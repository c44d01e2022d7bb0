/**
 * Reads on a PostgreSQL streaming replica, against real servers started for the suite (test/support/replica-servers):
 * reads without a lock go to the replica on every surface, writes and conditional checks to the primary; a caller
 * reads its own write at once under a 500 ms replay delay while another may read the replica's older row; a stopped
 * replica costs no request an error; two tenants stay apart on the replica path; an event is delivered once its row
 * is readable on the replica. Statements are counted per server with pg_stat_statements.
 */
import type { AddressInfo } from 'node:net';
import { Controller, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { EntityConfig, RealtimeEvent, SvcContext } from '@svc/core';
import { Svc, SvcModule } from '@svc/nestjs';
import { sse } from '@svc/sse';
import { READ_AFTER_HEADER, typeorm, type ReplicaSkipReason } from '@svc/typeorm';
import { EventSource } from 'eventsource';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { callToolRaw } from './support/mcp-raw-calls';
import { postgresBinaries, startReplicaServers, type ReplicaServers } from '../support/replica-servers';

@Entity('rp_book')
class RpBook {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column()
  title!: string;

  @Column({ default: 0 })
  pages!: number;

  @Column({ default: 'a' })
  tenant!: string;
}

function headerOf(context: SvcContext, name: string): string | undefined {
  const value = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.[name];
  return typeof value === 'string' ? value : undefined;
}

const BOOKS: EntityConfig<RpBook> = {
  filter: { apply: ({ context }) => ({ tenant: { eq: headerOf(context, 'x-tenant') ?? 'nobody' } }) },
  set: { create: ({ context }) => ({ tenant: headerOf(context, 'x-tenant') ?? 'nobody' }) },
  schema: { input: { create: ['title', 'pages'], update: ['title', 'pages'] } },
  batch: { create: true },
  aggregate: {},
  realtime: {},
};

@Svc(RpBook, BOOKS)
@Controller('books')
class RpBookController {}

/** The JSON answers this suite reads: an item, a list page, an aggregate page or a GraphQL answer. */
interface Answer {
  readonly [field: string]: unknown;
  readonly title?: string;
  readonly items: { id: number; title: string; tenant: string; count: number }[];
}

const describeWithServers = process.env['SVC_TEST_POSTGRES_URL'] && postgresBinaries() ? describe : describe.skip;

describeWithServers('reads on a streaming replica (SVC_TEST_POSTGRES_URL, PostgreSQL binaries)', () => {
  let servers: ReplicaServers;
  let app: INestApplication;
  let base: string;
  const skipped: ReplicaSkipReason[] = [];
  const open: EventSource[] = [];

  const send = (
    method: string,
    path: string,
    who: { tenant?: string; user?: string; headers?: object } = {},
    body?: unknown,
  ) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        'x-tenant': who.tenant ?? 'a',
        ...(who.user ? { 'x-user': who.user } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(who.headers as Record<string, string> | undefined),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const json = async (response: Promise<Response>) => {
    const answer = await response;
    return { status: answer.status, headers: answer.headers, body: (await answer.json()) as Answer };
  };
  /** The SELECTs on rp_book each server ran while `work` did. */
  const counted = async (work: () => Promise<unknown>) => {
    await servers.caughtUp();
    const before = await Promise.all([
      servers.selectsOn('primary', 'rp_book'),
      servers.selectsOn('replica', 'rp_book'),
    ]);
    await work();
    const after = await Promise.all([servers.selectsOn('primary', 'rp_book'), servers.selectsOn('replica', 'rp_book')]);
    return { primary: after[0] - before[0], replica: after[1] - before[1] };
  };

  beforeAll(async () => {
    servers = await startReplicaServers();
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot({
          type: 'postgres',
          replication: { master: { url: servers.primaryUrl }, slaves: [{ url: servers.replicaUrl }] },
          entities: [RpBook],
          synchronize: true,
          logging: false,
        }),
        SvcModule.forRoot({
          infrastructure: typeorm({
            replicas: {
              maxLagMs: 2000,
              caller: (context) => headerOf(context as SvcContext, 'x-user'),
              onSkip: (reason) => skipped.push(reason),
            },
          }),
          realtimeTransports: [sse({ heartbeatMs: 1000 })],
          graphql: true,
          mcp: true,
        }),
      ],
      controllers: [RpBookController],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer() as { address(): AddressInfo }).address().port}`;
    for (const title of ['Dune', 'Emma', 'Ulysses'])
      await send('POST', '/books', { tenant: 'a' }, { title, pages: 100 });
    await send('POST', '/books', { tenant: 'b' }, { title: 'Secret of b', pages: 5 });
  }, 120_000);

  afterEach(async () => {
    for (const source of open.splice(0)) source.close();
    await servers.startReplica();
    await servers.setApplyDelay(0);
  });

  afterAll(async () => {
    await app?.close();
    await servers?.stop();
  });

  describe('routing', () => {
    it('reads a REST list, a REST get, an aggregate, GraphQL and an MCP find on the replica', async () => {
      const reads = await counted(async () => {
        expect((await send('GET', '/books?sort=id')).status).toBe(200);
        expect((await send('GET', '/books/1')).status).toBe(200);
        expect((await send('GET', '/books/aggregate')).status).toBe(200);
        const graphql = await json(send('POST', '/graphql', {}, { query: '{ rpBooks { items { id title } } }' }));
        expect(graphql.body['errors']).toBeUndefined();
        const tool = await callToolRaw(`${base}/mcp`, {
          name: 'rp_book_find_many',
          args: '{}',
          revision: '2025-11-25',
          headers: { 'x-tenant': 'a' },
        });
        expect(tool.result?.isError).toBeFalsy();
      });
      expect(reads.replica).toBeGreaterThanOrEqual(5);
      expect(reads.primary).toBe(0);
    });

    it('writes, checks If-Match and reads back on the primary, never on the replica', async () => {
      const reads = await counted(async () => {
        const got = await send('GET', '/books/2');
        const etag = got.headers.get('etag')!;
        const patched = await send('PATCH', '/books/2', { headers: { 'if-match': etag } }, { pages: 101 });
        expect(patched.status).toBe(200);
        expect((await send('PATCH', '/books/2', { headers: { 'if-match': etag } }, { pages: 102 })).status).toBe(412);
        expect((await send('POST', '/books/batch', {}, [{ title: 'B1' }, { title: 'B2' }])).status).toBe(201);
      });
      // The GET before the writes is the replica's only read: the pre-reads and the If-Match checks lock on the primary.
      expect(reads.replica).toBe(1);
      expect(reads.primary).toBeGreaterThanOrEqual(2);
    });
  });

  describe('read-your-writes under a 500 ms replay delay', () => {
    it("answers a caller's own write at once; another caller may read the replica's older row", async () => {
      await servers.setApplyDelay(500);
      const patched = await send('PATCH', '/books/3', { user: 'ann' }, { title: 'Ulysses, revised' });
      expect(patched.status).toBe(200);
      const token = patched.headers.get(READ_AFTER_HEADER);
      expect(token).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      const [own, other, withToken] = await Promise.all([
        json(send('GET', '/books/3', { user: 'ann' })),
        json(send('GET', '/books/3', { user: 'bob' })),
        json(send('GET', '/books/3', { user: 'cid', headers: { [READ_AFTER_HEADER]: token } })),
      ]);
      expect(own.body['title']).toBe('Ulysses, revised');
      expect(other.body['title']).toBe('Ulysses');
      expect(withToken.body['title']).toBe('Ulysses, revised');
      await servers.caughtUp();
      expect((await json(send('GET', '/books/3', { user: 'bob' }))).body['title']).toBe('Ulysses, revised');
    });

    it("delivers an event once its row is readable on the replica, where the subscriber's reads go", async () => {
      await servers.setApplyDelay(500);
      const seen: { title: unknown }[] = [];
      const source = new EventSource(`${base}/books/events?id=1`, {
        fetch: (input, init) =>
          fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-tenant': 'a' } }),
      });
      open.push(source);
      const reread = new Promise<void>((resolve) =>
        source.addEventListener('patched', (message) => {
          void (async () => {
            const event = JSON.parse(message.data) as RealtimeEvent;
            seen.push({
              title: (await json(send('GET', `/books/${String(event.id)}`, { user: 'eve' }))).body['title'],
            });
            resolve();
          })();
        }),
      );
      await new Promise<void>((resolve) => (source.onopen = () => resolve()));
      const started = Date.now();
      expect((await send('PATCH', '/books/1', { user: 'ann' }, { title: 'Dune Messiah' })).status).toBe(200);
      await reread;
      expect(seen).toEqual([{ title: 'Dune Messiah' }]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    });
  });

  describe('two tenants on the replica path', () => {
    it('keeps each tenant to its own rows in lists, gets, aggregates and GraphQL read on the replica', async () => {
      const reads = await counted(async () => {
        const listA = await json(send('GET', '/books?sort=id', { tenant: 'a' }));
        expect(listA.body.items.map((row) => row.tenant)).not.toContain('b');
        const listB = await json(send('GET', '/books?sort=id', { tenant: 'b' }));
        expect(listB.body.items.map((row) => row.title)).toEqual(['Secret of b']);
        const secretId = listB.body.items[0]!.id;
        expect((await send('GET', `/books/${secretId}`, { tenant: 'a' })).status).toBe(404);
        const counts = await json(send('GET', '/books/aggregate', { tenant: 'b' }));
        expect(counts.body.items[0]!.count).toBe(1);
      });
      expect(reads.replica).toBeGreaterThanOrEqual(4);
      expect(reads.primary).toBe(0);
    });
  });
  describe('when the replica stops mid-load', () => {
    it('answers every read from the primary, with no 5xx, and reports the replica once', async () => {
      skipped.length = 0;
      const load = Array.from({ length: 40 }, (_, index) => async () => {
        if (index === 10) await servers.stopReplica();
        return (await send('GET', index % 2 === 0 ? '/books?sort=id' : '/books/1')).status;
      });
      const statuses: number[] = [];
      for (const step of load) statuses.push(await step());
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(skipped).toEqual(['unreachable']);
      // Back up, it serves reads again once the skip has passed.
      await servers.startReplica();
      let replica = 0;
      for (let attempt = 0; attempt < 50 && replica === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        replica = (await counted(() => send('GET', '/books/1'))).replica;
      }
      expect(replica).toBe(1);
    });
  });
});
