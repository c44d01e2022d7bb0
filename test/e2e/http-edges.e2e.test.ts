/** HTTP edges: OPTIONS answers for the operations really served; ETags of shaped bodies still work with If-Match. */
import request from 'supertest';
import { Author, BOOKSTORE_ENTITIES, Book, Note } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

describe.each(TEST_DATABASES)('HTTP edges on $name', (db) => {
  let t: TestApp;
  let bookId: number;
  let authorId: number;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_http_edges',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { include: { fields: ['author'] } }),
        svcController('authors', Author),
        svcController('notes', Note),
      ],
    });
    authorId = (await request(t.server).post('/authors').send({ name: 'Ann' }).expect(201)).body.id;
    bookId = (await request(t.server).post('/books').send({ title: 'T', authorId }).expect(201)).body.id;
  });
  afterAll(() => t.close());

  describe('GET /<collection>/events where realtime is off', () => {
    it('answers as for any other id: an integer key refuses the word as it refuses any', async () => {
      const events = await request(t.server).get('/books/events');
      const word = await request(t.server).get('/books/eventz');
      expect(events.status).toBe(400);
      expect(events.body).toMatchObject({
        code: 'SVC_QUERY_INVALID',
        errors: [{ param: 'id', code: 'invalid_value' }],
      });
      expect({ status: events.status, errors: events.body.errors }).toEqual({
        status: word.status,
        errors: [{ ...word.body.errors[0], detail: word.body.errors[0].detail.replace('eventz', 'events') }],
      });
    });

    it('answers 404 where the key is a uuid, as for any row that does not exist', async () => {
      const events = await request(t.server).get('/notes/events');
      expect(events.status).toBe(404);
      expect(events.body).toMatchObject({ code: 'SVC_NOT_FOUND', params: { id: 'events' } });
    });
  });

  describe('OPTIONS', () => {
    it('lists the methods served on a path', async () => {
      const collection = await request(t.server).options('/books').expect(204);
      expect(collection.headers.allow.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
      const item = await request(t.server).options(`/books/${bookId}`).expect(204);
      expect(item.headers.allow.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT']);
    });

    it('answers 404 for restore and purge on a hard-delete entity, which does not serve them', async () => {
      const response = await request(t.server).options(`/authors/${authorId}/restore`).expect(404);
      expect(response.body.code).toBe('SVC_ROUTE_NOT_FOUND');
      expect((await request(t.server).options(`/books/${bookId}/restore`).expect(204)).headers.allow).toContain(
        'PATCH',
      );
    });
  });

  describe('ETags of shaped single-row reads', () => {
    it('differ from the plain ETag, answer If-None-Match for their own shape, and pass If-Match', async () => {
      const plain = await request(t.server).get(`/books/${bookId}`).expect(200);
      const shaped = await request(t.server).get(`/books/${bookId}?select=title&include=author`).expect(200);
      expect(shaped.body).toEqual({ title: 'T', author: expect.objectContaining({ name: 'Ann' }) });
      expect(shaped.headers.etag).not.toBe(plain.headers.etag);
      await request(t.server)
        .get(`/books/${bookId}?select=title&include=author`)
        .set('If-None-Match', shaped.headers.etag)
        .expect(304);
      await request(t.server).get(`/books/${bookId}`).set('If-None-Match', shaped.headers.etag).expect(200);
      await request(t.server)
        .patch(`/books/${bookId}`)
        .set('If-Match', shaped.headers.etag)
        .send({ pages: 9 })
        .expect(200);
      await request(t.server)
        .patch(`/books/${bookId}`)
        .set('If-Match', shaped.headers.etag)
        .send({ pages: 10 })
        .expect(412);
    });
  });
});
