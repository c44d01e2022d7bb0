/** identifier.field: single-row routes address rows by another scalar column; keys and tie-breakers stay on the PK. */
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

describe.each(TEST_DATABASES)('identifier on $name', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_identifier',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('authors', Author, { identifier: { field: 'name' } }), svcController('books', Book)],
    });
  });
  afterAll(() => t.close());

  it('creates with a Location named by the identifier, and reads by it', async () => {
    const created = await request(t.server).post('/authors').send({ name: 'Ann Leckie', country: 'US' }).expect(201);
    expect(created.headers.location).toBe('/authors/Ann%20Leckie');
    const read = await request(t.server).get('/authors/Ann%20Leckie').expect(200);
    expect(read.body).toMatchObject({ id: created.body.id, country: 'US' });
    expect(read.headers.etag).toBeDefined();
  });

  it('updates, patches and deletes by the identifier, keeping the primary key immutable', async () => {
    const created = await request(t.server).post('/authors').send({ name: 'Bob' }).expect(201);
    const patched = await request(t.server).patch('/authors/Bob').send({ country: 'UK', id: 999 }).expect(200);
    expect(patched.body).toMatchObject({ id: created.body.id, country: 'UK' });
    await request(t.server).put('/authors/Bob').send({ name: 'Bob', country: 'IE' }).expect(200);
    await request(t.server).delete('/authors/Bob').expect(204);
    const missing = await request(t.server).get('/authors/Bob').expect(404);
    expect(missing.body.code).toBe('SVC_NOT_FOUND');
  });

  it('keeps the list tie-breaker on the primary key', async () => {
    await request(t.server).post('/authors').send({ name: 'Zed', country: 'US' }).expect(201);
    await request(t.server).post('/authors').send({ name: 'Amy', country: 'US' }).expect(201);
    const list = await request(t.server).get('/authors?sort=country&filter[country][eq]=US').expect(200);
    const ids = list.body.items.map((author: Author) => author.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
  });
});
