/**
 * Realtime under load and churn: concurrent writers and many subscribers lose, duplicate and reorder nothing per row;
 * a thousand connect/disconnect cycles leave no connection, listener or memory behind; a subscriber that stops reading
 * is disconnected instead of buffered without bound; every write path publishes its event.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { EntityConfig, RealtimeEvent } from '@svc/core';
import { sse, type SseTransport } from '@svc/sse';
import { EventSource } from 'eventsource';
import { Column, Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { report } from '../support/test-report';

@Entity('rl_label')
class Label {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
}

@Entity('rl_counter')
class Counter {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', default: 0 }) value!: number;
  @Column({ type: 'text', nullable: true }) payload!: string | null;
  @ManyToMany(() => Label) @JoinTable({ name: 'rl_counter_labels' }) labels!: Label[];
}

const COUNTERS: EntityConfig = {
  relations: { labels: { write: { strategy: 'resource' } } },
  operations: {
    findMany: true,
    findOne: true,
    createOne: true,
    patchOne: true,
    deleteOne: true,
    bumpOne: {
      kind: 'write',
      cardinality: 'one',
      realtimeEvent: 'patched',
      meta: { routes: { method: 'POST', path: ':id/bump' } },
      handler: async (input, context) => {
        const row = (await context.repository!.findOne({ key: input.key! })) as { value: number };
        await context.repository!.update(input.key!, { value: row.value + 1 });
        return context.repository!.findOne({ key: input.key! });
      },
    },
  },
};

interface Received {
  readonly id: string;
  readonly data: RealtimeEvent;
}

describe.each(TEST_DATABASES)('realtime under load on $name', (db) => {
  let t: TestApp;
  let base: string;
  let transport: SseTransport;
  const sources: EventSource[] = [];

  const listen = async (path: string): Promise<{ source: EventSource; events: Received[] }> => {
    const events: Received[] = [];
    const source = new EventSource(`${base}${path}`);
    sources.push(source);
    for (const type of ['created', 'updated', 'patched', 'deleted', 'restored']) {
      source.addEventListener(type, (message) =>
        events.push({ id: message.lastEventId, data: JSON.parse(message.data) as RealtimeEvent }),
      );
    }
    await new Promise<void>((resolve, reject) => {
      source.onopen = () => resolve();
      source.onerror = () => reject(new Error('the stream did not open'));
    });
    return { source, events };
  };

  const post = async (path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${base}${path}`, {
      method: path.endsWith('/bump') ? 'POST' : body === undefined ? 'DELETE' : 'POST',
      ...(body === undefined ? {} : { headers: { 'content-type': type }, body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.text()) || undefined };
  };

  const eventually = async (check: () => boolean, what: string, ms = 20000) => {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  beforeAll(async () => {
    transport = sse({ heartbeatMs: 60000, maxBufferedBytes: 64 * 1024 });
    t = await createTestApp({
      db,
      suite: 'e2e_realtime_load',
      entities: [Label, Counter],
      controllers: [
        svcController('counters', Counter, COUNTERS),
        // The same entity with JSON Patch bodies: its events reach the subscribers of Counter wherever they listen.
        svcController('patchable', Counter, { relations: { labels: { write: { strategy: 'jsonPatch' } } } }),
        svcController('labels', Label),
      ],
      svc: { realtimeTransports: [transport], realtime: {} },
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterEach(() => {
    for (const source of sources.splice(0)) source.close();
  });

  afterAll(() => t.close());

  it('publishes from custom writes, relation array writes and JSON Patch', async () => {
    const { source, events } = await listen('/counters/events');
    const counter = JSON.parse((await post('/counters', { value: 0 })).body!) as { id: number };
    const label = JSON.parse((await post('/labels', { name: 'hot' })).body!) as { id: number };
    expect((await post(`/counters/${counter.id}/bump`)).status).toBe(201);
    expect((await post(`/counters/${counter.id}/labels`, [label.id])).status).toBe(200);
    const patch = await fetch(`${base}/patchable/${counter.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/value', value: 40 }]),
    });
    expect(patch.status).toBe(200);
    await eventually(() => events.length === 4, 'four events');
    source.close();
    expect(events.map(({ data }) => [data.event, data.item?.['value']])).toEqual([
      ['created', 0],
      ['patched', 1],
      ['updated', 1],
      ['patched', 40],
    ]);
    expect(events[2]!.data.changed).toEqual(['labels']);
  });

  it('delivers every event of ten concurrent writers to fifty subscribers, once each and in order per row', async () => {
    const rows = await Promise.all(
      Array.from(
        { length: 10 },
        async () => JSON.parse((await post('/counters', { value: 0 })).body!) as { id: number },
      ),
    );
    const subscribers = await Promise.all(Array.from({ length: 50 }, () => listen('/counters/events')));
    const bumps = 10;
    // Ten writers, one per row, each bumping its row `bumps` times in sequence, all at once.
    await Promise.all(
      rows.map(async (row) => {
        for (let i = 0; i < bumps; i++) expect((await post(`/counters/${row.id}/bump`)).status).toBe(201);
      }),
    );
    const expected = rows.length * bumps;
    await eventually(() => subscribers.every(({ events }) => events.length >= expected), 'every event everywhere');
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const { source, events } of subscribers) {
      source.close();
      expect(events).toHaveLength(expected);
      expect(new Set(events.map((event) => event.id)).size).toBe(expected);
      for (const row of rows) {
        const values = events.filter(({ data }) => data.id === row.id).map(({ data }) => data.item?.['value']);
        expect(values).toEqual(Array.from({ length: bumps }, (_, i) => i + 1));
      }
    }
  });

  it('disconnects a subscriber that stops reading instead of buffering for it without bound', async () => {
    const counter = JSON.parse((await post('/counters', { value: 0 })).body!) as { id: number };
    const before = transport.connectionCount('Counter');
    // A raw client that never reads: the socket's buffers fill, then Svc's bound.
    const response = await new Promise<IncomingMessage>((resolve) =>
      httpRequest(`${base}/counters/events`, (res) => resolve(res)).end(),
    );
    response.pause();
    await eventually(() => transport.connectionCount('Counter') === before + 1, 'the stalled subscriber');
    const big = 'x'.repeat(60_000);
    for (let i = 0; i < 200 && transport.connectionCount('Counter') > before; i++) {
      await fetch(`${base}/counters/${counter.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payload: `${big}${i}` }),
      });
    }
    await eventually(() => transport.connectionCount('Counter') === before, 'the stalled subscriber dropped');
    response.destroy();
  });

  if (db.name === 'sqlite') {
    it('leaves no connection, listener or memory behind after 1,000 connect/disconnect cycles', async () => {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const server = t.app.getHttpServer() as { listenerCount(event: string): number };
      const cycle = async () => {
        const controller = new AbortController();
        const res = await fetch(`${base}/counters/events`, { signal: controller.signal });
        await res.body!.getReader().read();
        controller.abort();
      };
      for (let i = 0; i < 50; i++) await cycle();
      await eventually(() => transport.connectionCount() === 0, 'the warm-up released');
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const listenersBefore = server.listenerCount('request') + server.listenerCount('connection');
      for (let i = 0; i < 1000; i++) await cycle();
      await eventually(() => transport.connectionCount() === 0, 'every connection released');
      await new Promise((resolve) => setTimeout(resolve, 200));
      gc();
      const growth = process.memoryUsage().heapUsed - heapBefore;
      const listenersAfter = server.listenerCount('request') + server.listenerCount('connection');
      report(
        `1,000 SSE connect/disconnect cycles: heap ${(heapBefore / 1e6).toFixed(1)} MB -> ${((heapBefore + growth) / 1e6).toFixed(1)} MB, server listeners ${listenersBefore} -> ${listenersAfter}, open connections ${transport.connectionCount()}`,
      );
      expect(listenersAfter).toBe(listenersBefore);
      // A leak of one subscription per cycle would hold megabytes; allow the noise of the allocator.
      expect(growth).toBeLessThan(8 * 1024 * 1024);
    }, 120000);
  }
});
