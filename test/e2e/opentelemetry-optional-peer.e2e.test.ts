/**
 * `@opentelemetry/api` is an optional peer of @svc/core: an app installed without it (npm's --legacy-peer-deps, yarn,
 * pnpm with auto-install-peers=false) boots and serves as before, untraced, and a write's events still reach the
 * transports.
 */
import type { RealtimeEvent } from '@svc/core';
import type { RealtimeTransport } from '@svc/core/spi';
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

jest.mock('@opentelemetry/api', () => {
  throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: 'MODULE_NOT_FOUND' });
});

describe.each(TEST_DATABASES)('An app without @opentelemetry/api on $name', (db) => {
  let t: TestApp;
  const published: RealtimeEvent[] = [];
  const recording: RealtimeTransport = {
    name: 'recording',
    publish: async (event) => {
      published.push(event);
    },
  };

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_no_opentelemetry',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book, { realtime: {} })],
      svc: { realtimeTransports: [recording] },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('cannot load @opentelemetry/api here', async () => {
    await expect(import('@opentelemetry/api')).rejects.toThrow("Cannot find module '@opentelemetry/api'");
  });

  it('boots and serves reads and writes', async () => {
    const created = await request(t.server).post('/books').send({ title: 'Dune', pages: 412 }).expect(201);
    await request(t.server).patch(`/books/${created.body.id}`).send({ pages: 413 }).expect(200);
    const listed = await request(t.server).get('/books').expect(200);
    expect(listed.body.items).toEqual([expect.objectContaining({ title: 'Dune', pages: 413 })]);
    await request(t.server).get('/books/999999').expect(404);
  });

  it("delivers each write's event to the transports", async () => {
    const before = published.length;
    await request(t.server).post('/books').send({ title: 'Kindred', pages: 264 }).expect(201);
    for (let tries = 0; published.length === before && tries < 50; tries++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(published.slice(before)).toEqual([
      expect.objectContaining({
        event: 'created',
        entity: 'Book',
        item: expect.objectContaining({ title: 'Kindred' }),
      }),
    ]);
  });
});
