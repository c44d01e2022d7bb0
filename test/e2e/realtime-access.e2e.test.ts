/**
 * Access per caller over realtime events (`access`), with a real SSE client on each database: an event reaches each
 * subscriber as that subscriber's role sees the entity (an admin's carries the cost, a reader's does not, and a change
 * to the cost alone is no news to a reader), no tenant hears of another's rows, and a subscription filter naming a
 * column the role may not read is refused before the stream opens.
 */
import type { AddressInfo } from 'node:net';
import type { RealtimeEvent } from '@svc/core';
import { SvcRegistry } from '@svc/nestjs';
import { sse } from '@svc/sse';
import { EventSource } from 'eventsource';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { ACCESS_ENTITIES, AcAuthor, AcBook, AUTHOR_CONFIG, BOOK_CONFIG } from './support/access-fixtures';

interface Received {
  readonly type: string;
  readonly data: RealtimeEvent;
}

describe.each(TEST_DATABASES)('realtime events per caller over SSE on $name', (db) => {
  let t: TestApp;
  let base: string;
  const open: EventSource[] = [];
  const ids: Record<string, number> = {};

  const headersOf = (tenant: string, role: string) => ({ 'x-tenant': tenant, 'x-role': role });

  /** Opens an EventSource as `<tenant>, <role>`; resolves once the stream is open. */
  const subscribe = async (tenant: string, role: string, path = '/books/events'): Promise<Received[]> => {
    const events: Received[] = [];
    const source = new EventSource(`${base}${path}`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), ...headersOf(tenant, role) },
        }),
    });
    open.push(source);
    for (const type of ['created', 'updated', 'patched', 'deleted', 'restored', 'reset'])
      source.addEventListener(type, (message) =>
        events.push({ type, data: JSON.parse(message.data) as RealtimeEvent }),
      );
    await new Promise<void>((resolve, reject) => {
      source.onopen = () => resolve();
      source.onerror = (error) => reject(new Error(`the stream did not open: ${String(error.message)}`));
    });
    return events;
  };

  const send = (method: string, path: string, tenant: string, role: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headersOf(tenant, role), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

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
    t = await createTestApp({
      db,
      suite: 'e2e_realtime_access',
      entities: ACCESS_ENTITIES,
      controllers: [
        svcController('books', AcBook, { ...BOOK_CONFIG, realtime: {} }),
        svcController('authors', AcAuthor, AUTHOR_CONFIG),
      ],
      svc: { realtimeTransports: [sse({ heartbeatMs: 100, bufferSize: 50 })] },
    });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const books = t.dataSource.getRepository(AcBook);
    ids['a1'] = (await books.save({ tenant: 'a', title: 'A one', price: 20, cost: 7 })).id;
    ids['b1'] = (await books.save({ tenant: 'b', title: 'B one', price: 40, cost: 11 })).id;
  });

  afterEach(() => {
    for (const source of open.splice(0)) source.close();
  });

  afterAll(() => t?.close());

  it('an admin’s write of the cost and the title: the admin hears both, a reader the title alone', async () => {
    const reader = await subscribe('a', 'reader');
    const admin = await subscribe('a', 'admin');
    const editor = await subscribe('a', 'editor');
    const res = await send('PATCH', `/books/${ids['a1']}`, 'a', 'admin', { title: 'A one, costed', cost: 8 });
    expect(res.status).toBe(200);
    await eventually(() => reader.length === 1 && admin.length === 1 && editor.length === 1, 'one event each');
    expect(admin[0]!.data.item).toMatchObject({ title: 'A one, costed', cost: 8 });
    expect(admin[0]!.data.changed).toEqual(expect.arrayContaining(['title', 'cost']));
    for (const narrowed of [reader, editor]) {
      expect(narrowed[0]!.type).toBe('patched');
      expect(narrowed[0]!.data.item).toMatchObject({ id: ids['a1'], title: 'A one, costed', price: 20 });
      expect(narrowed[0]!.data.item).not.toHaveProperty('cost');
      expect(narrowed[0]!.data.changed).toEqual(['title']);
      expect(JSON.stringify(narrowed[0]!.data)).not.toMatch(/\bcost\b/);
    }
  });

  it('a change of the cost alone is no news to a reader', async () => {
    const reader = await subscribe('a', 'reader');
    const admin = await subscribe('a', 'admin');
    expect((await send('PATCH', `/books/${ids['a1']}`, 'a', 'admin', { cost: 9 })).status).toBe(200);
    // A later change the reader sees: it comes after the first, so the first would have arrived by then.
    expect((await send('PATCH', `/books/${ids['a1']}`, 'a', 'admin', { price: 21 })).status).toBe(200);
    await eventually(() => admin.length === 2 && reader.length === 1, 'two events for the admin, one for the reader');
    await settle();
    expect(admin.map((event) => event.data.changed)).toEqual([['cost'], ['price']]);
    expect(admin[0]!.data.item).toMatchObject({ cost: 9 });
    expect(reader).toHaveLength(1);
    expect(reader[0]!.data.changed).toEqual(['price']);
    expect(reader[0]!.data.item).not.toHaveProperty('cost');
  });

  it('a created row reaches a reader without its cost, and a deleted one reaches it as deleted', async () => {
    const reader = await subscribe('a', 'reader');
    const admin = await subscribe('a', 'admin');
    const created = await send('POST', '/books', 'a', 'admin', { title: 'A new', price: 5, cost: 3 });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    expect((await send('DELETE', `/books/${id}`, 'a', 'admin')).status).toBe(204);
    await eventually(() => reader.length === 2 && admin.length === 2, 'created and deleted');
    expect(reader.map((event) => event.type)).toEqual(['created', 'deleted']);
    expect(reader[0]!.data.item).toMatchObject({ id, title: 'A new', tenant: 'a' });
    expect(reader[0]!.data.item).not.toHaveProperty('cost');
    expect(reader[0]!.data.changed).not.toContain('cost');
    expect(admin[0]!.data.item).toMatchObject({ id, cost: 3 });
    expect(admin[0]!.data.changed).toContain('cost');
    expect(reader[1]!.data.item).toBeNull();
  });

  it('tenant b’s subscribers hear nothing of tenant a’s rows, and the other way round', async () => {
    const a = { reader: await subscribe('a', 'reader'), admin: await subscribe('a', 'admin') };
    const b = { reader: await subscribe('b', 'reader'), admin: await subscribe('b', 'admin') };
    expect((await send('PATCH', `/books/${ids['a1']}`, 'a', 'admin', { title: 'A one, again', cost: 10 })).status).toBe(
      200,
    );
    const created = await send('POST', '/books', 'a', 'editor', { title: 'A by editor', price: 6 });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    expect((await send('DELETE', `/books/${id}`, 'a', 'admin')).status).toBe(204);
    expect((await send('PATCH', `/books/${ids['b1']}`, 'b', 'admin', { title: 'B one, again', cost: 12 })).status).toBe(
      200,
    );
    await eventually(() => a.admin.length === 3 && b.admin.length === 1 && b.reader.length === 1, 'every event');
    await settle();
    for (const events of [b.reader, b.admin]) {
      expect(events).toHaveLength(1);
      expect(events[0]!.data.id).toBe(ids['b1']);
      expect(events[0]!.data.item).toMatchObject({ tenant: 'b', title: 'B one, again' });
    }
    expect(b.reader[0]!.data.item).not.toHaveProperty('cost');
    expect(b.admin[0]!.data.item).toMatchObject({ cost: 12 });
    for (const events of [a.reader, a.admin]) {
      expect(events.map((event) => event.data.id)).toEqual([ids['a1'], id, id]);
      expect(JSON.stringify(events)).not.toContain('B one');
    }
  });

  it('a reader’s subscription filter on the cost is a 400 naming it; an admin’s is served', async () => {
    for (const tenant of ['a', 'b']) {
      for (const role of ['reader', 'editor']) {
        const refused = await fetch(`${base}/books/events?filter[cost][gt]=0`, { headers: headersOf(tenant, role) });
        expect(refused.status).toBe(400);
        const problem = (await refused.json()) as { code: string; errors?: unknown[] };
        expect(problem.code).toBe('SVC_QUERY_INVALID');
        expect(JSON.stringify(problem.errors)).toContain('cost');
      }
    }
    const byCost = await subscribe('a', 'admin', '/books/events?filter[cost][gte]=100');
    const byTitle = await subscribe('a', 'reader', '/books/events?filter[title][eq]=Costly');
    const created = await send('POST', '/books', 'a', 'admin', { title: 'Costly', price: 1, cost: 150 });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    await eventually(() => byCost.length === 1 && byTitle.length === 1, 'the filtered events');
    expect(byCost[0]!.data.item).toMatchObject({ id, cost: 150 });
    expect(byTitle[0]!.data.item).not.toHaveProperty('cost');
  });

  it('a reader’s programmatic subscription filter on the cost is refused too', async () => {
    const service = t.app
      .get(SvcRegistry)
      .instance.services()
      .find((candidate) => candidate.describe().name === 'AcBook')!;
    const context = { 'x-tenant': 'a', 'x-role': 'reader' };
    await expect(service.subscribe({ query: { filter: { cost: { gt: 0 } } }, context })).rejects.toMatchObject({
      code: 'SVC_QUERY_INVALID',
    });
    await expect(
      service.subscribe({ query: { filter: { cost: { gt: 0 } } }, context: { ...context, 'x-role': 'admin' } }),
    ).resolves.toMatchObject({ entity: 'AcBook' });
  });
});
