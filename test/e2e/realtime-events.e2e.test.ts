/**
 * Realtime events over Server-Sent Events, with a real SSE client (`eventsource`) and raw `fetch`: the five events
 * and their payload after commit, the settings chain, the subscription route's checks before the stream opens, two
 * tenants that never see each other's events (deleted ones included), resume, heartbeats and the stream headers.
 */
import type { AddressInfo } from 'node:net';
import { Injectable, UseGuards, type CanActivate } from '@nestjs/common';
import type { EntityConfig, RealtimeEvent, SvcContext } from '@svc/core';
import type { RealtimeTransport } from '@svc/core/spi';
import { sse, type SseTransport } from '@svc/sse';
import { EventSource } from 'eventsource';
import { Column, Entity, PrimaryGeneratedColumn, DeleteDateColumn } from 'typeorm';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

@Entity('rt_doc')
class Doc {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100, unique: true }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'varchar', length: 100, nullable: true }) secret!: string | null;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

@Entity('rt_quiet')
class Quiet {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100 }) title!: string;
}

/** A guard that refuses every request. */
@Injectable()
class RefuseAll implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

const tenantOf = (context: SvcContext): string => {
  const header = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.['x-tenant'];
  return typeof header === 'string' ? header : 'none';
};

const DOCS: EntityConfig = {
  select: { fields: ['id', 'title', 'pages', 'deletedAt'] },
  filter: { fields: ['title', 'pages'], apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: ({ context }) => ({ tenant: tenantOf(context) }),
  policy: ({ operation, context }) => operation !== 'findMany' || tenantOf(context) !== 'banned',
  realtime: { subscribableFields: { exclude: ['deletedAt'] } },
};

/** One SSE subscriber: every event it receives, in order, with its id. */
interface Received {
  readonly id: string;
  readonly type: string;
  readonly data: RealtimeEvent;
}

describe.each(TEST_DATABASES)('realtime events over SSE on $name', (db) => {
  let t: TestApp;
  let base: string;
  let transport: SseTransport;
  const failures: unknown[] = [];
  const open: EventSource[] = [];

  /** Opens an EventSource as a tenant; resolves once the stream is open. */
  const subscribe = async (
    tenant: string,
    path = '/docs/events',
    headers: Record<string, string> = {},
  ): Promise<{ source: EventSource; events: Received[] }> => {
    const events: Received[] = [];
    const source = new EventSource(`${base}${path}`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), 'x-tenant': tenant, ...headers },
        }),
    });
    open.push(source);
    for (const type of ['created', 'updated', 'patched', 'deleted', 'restored', 'reset']) {
      source.addEventListener(type, (message) =>
        events.push({ id: message.lastEventId, type, data: JSON.parse(message.data) as RealtimeEvent }),
      );
    }
    await new Promise<void>((resolve, reject) => {
      source.onopen = () => resolve();
      source.onerror = (error) => reject(new Error(`the stream did not open: ${String(error.message)}`));
    });
    return { source, events };
  };

  const send = (method: string, path: string, tenant: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      // No Content-Type without a body: Fastify refuses an empty JSON body.
      headers: { 'x-tenant': tenant, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** Waits until `check` holds (events arrive asynchronously), failing after a bound. */
  const eventually = async (check: () => boolean, what: string, ms = 3000) => {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  /** Lets in-flight events land, so an absence means something. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

  beforeAll(async () => {
    transport = sse({ heartbeatMs: 100, bufferSize: 20 });
    const failing: RealtimeTransport = {
      name: 'failing',
      publish: async () => {
        throw new Error('broker down');
      },
    };
    const hanging: RealtimeTransport = { name: 'hanging', publish: () => new Promise(() => undefined) };
    t = await createTestApp({
      db,
      suite: 'e2e_realtime_sse',
      entities: [Doc, Quiet],
      controllers: [
        svcController('docs', Doc, DOCS),
        // A second controller of Doc that serves its secret: its writes reach /docs' subscribers without it.
        svcController('staff-docs', Doc, {
          ...DOCS,
          select: { fields: ['id', 'title', 'pages', 'secret', 'deletedAt'] },
        }),
        svcController('quiet', Quiet, { realtime: { events: { patched: false } } }),
        svcController('silent', Quiet, { realtime: false }),
        // findMany's own guards hold the subscription route too: subscribing reads like a list.
        svcController('guarded', Quiet, {
          realtime: {},
          operations: { findMany: { meta: { decorators: [UseGuards(RefuseAll)] } }, createOne: true },
        }),
      ],
      svc: {
        realtimeTransports: [transport, failing, hanging],
        realtime: { onPublishError: (error) => failures.push(error) },
      },
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterEach(() => {
    for (const source of open.splice(0)) source.close();
  });

  afterAll(() => t.close());

  it('opens a stream with the SSE headers and a retry hint', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/docs/events`, { headers: { 'x-tenant': 'a' }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text.startsWith('retry: 2000\n\n')).toBe(true);
    controller.abort();
  });

  it('publishes the five events after commit, each with the documented payload', async () => {
    const { events } = await subscribe('a');
    const created = await send('POST', '/docs', 'a', { title: 'Five events', pages: 10, secret: 'x' });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    expect((await send('PATCH', `/docs/${id}`, 'a', { pages: 11 })).status).toBe(200);
    expect((await send('PUT', `/docs/${id}`, 'a', { title: 'Five events', pages: 12 })).status).toBe(200);
    expect((await send('DELETE', `/docs/${id}`, 'a')).status).toBe(204);
    expect((await send('PATCH', `/docs/${id}/restore`, 'a')).status).toBe(200);
    await eventually(() => events.length === 5, 'five events');
    expect(events.map((event) => event.type)).toEqual(['created', 'patched', 'updated', 'deleted', 'restored']);
    const [first, patched, , deleted] = events;
    expect(first!.data).toEqual({
      event: 'created',
      entity: 'Doc',
      id,
      channel: `Doc.${id}`,
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      item: { id, title: 'Five events', pages: 10 },
      changed: expect.arrayContaining(['id', 'title', 'pages']),
    });
    // Outside select.fields (tenant, secret) and subscribableFields (deletedAt): never sent.
    expect(JSON.stringify(events)).not.toMatch(/tenant|secret|deletedAt/);
    expect(patched!.data.changed).toEqual(['pages']);
    expect(deleted!.data.item).toBeNull();
    expect(new Set(events.map((event) => event.id)).size).toBe(5);
  });

  it("never shows one tenant the other's created, patched or deleted rows", async () => {
    const a = await subscribe('a');
    const b = await subscribe('b');
    const res = await send('POST', '/docs', 'b', { title: 'B only', pages: 1 });
    const id = ((await res.json()) as { id: number }).id;
    await send('PATCH', `/docs/${id}`, 'b', { pages: 2 });
    await send('DELETE', `/docs/${id}`, 'b');
    await eventually(() => b.events.length === 3, "b's three events");
    await settle();
    expect(b.events.map((event) => event.type)).toEqual(['created', 'patched', 'deleted']);
    expect(a.events).toEqual([]);
  });

  it('sends each subscriber only the fields its own controller serves, whoever wrote', async () => {
    const { events } = await subscribe('fields');
    const created = await send('POST', '/staff-docs', 'fields', { title: 'staff only', secret: 'S3CRET' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number; secret: string };
    await eventually(() => events.length === 1, 'the create');
    expect(events[0]!.data.item).toMatchObject({ id, title: 'staff only' });
    expect(events[0]!.data.item).not.toHaveProperty('secret');
    // A change to the secret alone is no event here; a change that includes it names only what /docs serves.
    await send('PATCH', `/staff-docs/${id}`, 'fields', { secret: 'NEW' });
    await send('PATCH', `/staff-docs/${id}`, 'fields', { pages: 3, secret: 'NEWER' });
    await eventually(() => events.length === 2, 'the visible patch');
    await settle();
    expect(events).toHaveLength(2);
    expect(events[1]!.data).toMatchObject({ event: 'patched', changed: ['pages'] });
    expect(events[1]!.data.item).not.toHaveProperty('secret');
    // The writer's own subscribers still get what their controller serves.
    const staff = await subscribe('fields', '/staff-docs/events');
    await send('PATCH', `/staff-docs/${id}`, 'fields', { secret: 'LAST' });
    await eventually(() => staff.events.length === 1, 'the staff event');
    expect(staff.events[0]!.data).toMatchObject({ changed: ['secret'], item: { secret: 'LAST' } });
  });

  it('narrows a subscription by filter (list grammar) and by id', async () => {
    const big = await subscribe('a', '/docs/events?filter[pages][gte]=100');
    const first = (await (await send('POST', '/docs', 'a', { title: 'Small', pages: 5 })).json()) as { id: number };
    const one = await subscribe('a', `/docs/events?id=${first.id}`);
    await send('POST', '/docs', 'a', { title: 'Big', pages: 500 });
    await send('PATCH', `/docs/${first.id}`, 'a', { pages: 6 });
    await eventually(() => big.events.length === 1 && one.events.length === 1, 'the narrowed events');
    await settle();
    expect(big.events.map((event) => event.data.item?.['title'])).toEqual(['Big']);
    expect(one.events.map((event) => [event.type, event.data.id])).toEqual([['patched', first.id]]);
  });

  it('answers a bad filter, an unknown parameter and a refusing policy as problems before the stream opens', async () => {
    const bad = await fetch(`${base}/docs/events?filter[secret][eq]=x`, { headers: { 'x-tenant': 'a' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await bad.json()) as { code: string }).code).toBe('SVC_QUERY_INVALID');
    const unknown = await fetch(`${base}/docs/events?sort=title`, { headers: { 'x-tenant': 'a' } });
    expect(((await unknown.json()) as { code: string }).code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
    // The JSON and bracket forms together hold one maxTerms (100), as on a list.
    const terms = Array.from({ length: 100 }, (_, i) => ({ pages: { eq: i } }));
    const both = await fetch(
      `${base}/docs/events?filter=${encodeURIComponent(JSON.stringify({ or: terms }))}&filter[pages][gte]=1`,
      { headers: { 'x-tenant': 'a' } },
    );
    expect(both.status).toBe(400);
    expect(((await both.json()) as { errors: unknown[] }).errors[0]).toMatchObject({ code: 'too_many_terms' });
    const banned = await fetch(`${base}/docs/events`, { headers: { 'x-tenant': 'banned' } });
    expect(banned.status).toBe(403);
    expect(((await banned.json()) as { code: string }).code).toBe('SVC_FORBIDDEN');
  });

  it('resumes from Last-Event-ID with exactly the missed events, and resets an aged-out id', async () => {
    const first = await subscribe('a');
    await send('POST', '/docs', 'a', { title: 'Before the drop', pages: 1 });
    await eventually(() => first.events.length === 1, 'the first event');
    first.source.close();
    const lastId = first.events[0]!.id;
    await send('POST', '/docs', 'a', { title: 'Missed one', pages: 1 });
    await send('POST', '/docs', 'a', { title: 'Missed two', pages: 1 });
    const resumed = await subscribe('a', '/docs/events', { 'last-event-id': lastId });
    await eventually(() => resumed.events.length === 2, 'the two missed events');
    await settle();
    expect(resumed.events.map((event) => event.data.item?.['title'])).toEqual(['Missed one', 'Missed two']);
    // ?lastEventId= for clients that cannot set headers, from an id long gone (the buffer keeps 20).
    for (let i = 0; i < 25; i++) await send('POST', '/docs', 'a', { title: `Flood ${i}`, pages: 1 });
    const late = await subscribe('a', `/docs/events?lastEventId=${encodeURIComponent(lastId)}`);
    await eventually(() => late.events.length >= 1, 'a reset');
    expect(late.events[0]!.type).toBe('reset');
  });

  it('sends heartbeat comments on an idle stream', async () => {
    const controller = new AbortController();
    // Timed from before the request: the stream's heartbeat timer starts on the server, before the answer arrives.
    const started = Date.now();
    try {
      const res = await fetch(`${base}/docs/events`, { headers: { 'x-tenant': 'a' }, signal: controller.signal });
      const reader = res.body!.getReader();
      let text = '';
      while ((text.match(/: heartbeat/g) ?? []).length < 2)
        text += new TextDecoder().decode((await reader.read()).value);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    } finally {
      controller.abort();
    }
  });

  it('keeps events a setting silences, and entities with realtime off, off the stream', async () => {
    const quiet = await subscribe('a', '/quiet/events');
    const res = await send('POST', '/quiet', 'a', { title: 'q' });
    const id = ((await res.json()) as { id: number }).id;
    await send('PATCH', `/quiet/${id}`, 'a', { title: 'q2' });
    await send('DELETE', `/quiet/${id}`, 'a');
    await eventually(() => quiet.events.length === 2, 'created and deleted');
    await settle();
    expect(quiet.events.map((event) => event.type)).toEqual(['created', 'deleted']);
    // realtime: false: no subscription route; `events` is an id like any other there.
    const silent = await fetch(`${base}/silent/events`);
    expect(silent.status).toBe(400);
    const options = await fetch(`${base}/docs/events`, { method: 'OPTIONS' });
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it("holds the subscription route to findMany's own guards", async () => {
    const refused = await fetch(`${base}/guarded/events`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('SVC_FORBIDDEN');
  });

  it('publishes nothing for a rolled-back write', async () => {
    const { events } = await subscribe('a');
    await send('POST', '/docs', 'a', { title: 'Unique title', pages: 1 });
    const duplicate = await send('POST', '/docs', 'a', { title: 'Unique title', pages: 2 });
    expect(duplicate.status).toBe(409);
    await eventually(() => events.length === 1, 'the one created');
    await settle();
    expect(events).toHaveLength(1);
  });

  it('answers writes at once while a transport fails or hangs, and reports the failure', async () => {
    failures.length = 0;
    const started = Date.now();
    const res = await send('POST', '/docs', 'a', { title: 'Despite transports', pages: 1 });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1000);
    await eventually(() => failures.length === 1, 'the failure report');
    expect(String(failures[0])).toContain('broker down');
  });

  it('lets go of every connection it held once the clients leave', async () => {
    for (let i = 0; i < 20; i++) (await subscribe(`c${i}`)).source.close();
    await eventually(() => transport.connectionCount() === 0, 'every connection released');
  });
});
