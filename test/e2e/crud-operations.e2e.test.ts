/** The standard operations over HTTP: success paths, their headers and bodies, and the request errors around them. */
import request from 'supertest';
import { Author, Book, BOOKSTORE_ENTITIES, Edition, Note } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectItem, expectList, expectProblem, namedIn } from './support/e2e-http';

const ETAG = /^"[^"]+"$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe.each(TEST_DATABASES)('CRUD operations over HTTP on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_crud',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book),
        svcController('authors', Author),
        svcController('editions', Edition),
        svcController('notes', Note),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function createBook(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return expectItem(await request(t.server).post('/books').send(body), 201);
  }

  describe('createOne (POST /books)', () => {
    it('answers 201 with the stored item, a strong ETag and a Location that reads it back', async () => {
      const res = await request(t.server).post('/books').send({ title: 'Dune', pages: 412 });
      const created = expectItem(res, 201);
      expect(created).toMatchObject({
        title: 'Dune',
        pages: 412,
        rating: null,
        published: false,
        isbn: null,
        authorId: null,
        deletedAt: null,
      });
      expect(typeof created['id']).toBe('number');
      expect(typeof created['updatedAt']).toBe('string');
      expect(res.headers['etag']).toMatch(ETAG);
      expect(res.headers['location']).toBe(`/books/${String(created['id'])}`);

      const read = await request(t.server).get(res.headers['location']!);
      expect(expectItem(read)).toEqual(created);
      expect(read.headers['etag']).toBe(res.headers['etag']);
    });
  });

  describe('findOne (GET /books/:id)', () => {
    it('answers 200 with the item and its ETag', async () => {
      const book = await createBook({ title: 'Emma', pages: 300 });
      const res = await request(t.server).get(`/books/${String(book['id'])}`);
      expect(expectItem(res)).toEqual(book);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['etag']).toMatch(ETAG);
    });

    it('answers 404 SVC_NOT_FOUND naming the entity and id when no row has the id', async () => {
      const problem = expectProblem(await request(t.server).get('/books/999999'), 404, 'SVC_NOT_FOUND');
      expect(problem.params?.['entity']).toBe('Book');
      expect(String(problem.params?.['id'])).toBe('999999');
      expect(problem.instance).toBe('/books/999999');
    });

    it('answers 400 naming id when the id is not a number', async () => {
      const problem = expectProblem(await request(t.server).get('/books/abc'), 400, 'SVC_QUERY_INVALID');
      expect(namedIn(problem)).toEqual(['id']);
    });
  });

  describe('findMany (GET /books)', () => {
    it('answers the list envelope with exactly items, limit, offset and total, and no meta', async () => {
      const list = expectList(await request(t.server).get('/books'));
      expect(list.limit).toBe(20);
      expect(list.offset).toBe(0);
      expect(typeof list.total).toBe('number');
      expect(list.items.length).toBe(Math.min(list.total!, 20));
      expect(list.items.every((item) => typeof item['id'] === 'number' && typeof item['title'] === 'string')).toBe(
        true,
      );
    });

    it('sets no ETag on a list', async () => {
      const res = await request(t.server).get('/books');
      expect(res.headers['etag']).toBeUndefined();
    });
  });

  describe('updateOne (PUT /books/:id)', () => {
    it('answers 200 with the replaced item and a new ETag', async () => {
      const book = await createBook({ title: 'Old', pages: 10 });
      const before = await request(t.server).get(`/books/${String(book['id'])}`);
      const res = await request(t.server)
        .put(`/books/${String(book['id'])}`)
        .send({ title: 'New', pages: 11, published: true });
      expect(expectItem(res)).toMatchObject({ id: book['id'], title: 'New', pages: 11, published: true });
      expect(res.headers['etag']).toMatch(ETAG);
      expect(res.headers['etag']).not.toBe(before.headers['etag']);
    });

    it('answers 404 SVC_NOT_FOUND for a missing row', async () => {
      expectProblem(await request(t.server).put('/books/999999').send({ title: 'x' }), 404, 'SVC_NOT_FOUND');
    });
  });

  describe('patchOne (PATCH /books/:id)', () => {
    it('answers 200 with the merged item and its ETag', async () => {
      const book = await createBook({ title: 'Patch me', pages: 20, rating: 3.5 });
      const res = await request(t.server)
        .patch(`/books/${String(book['id'])}`)
        .send({ pages: 21 });
      expect(expectItem(res)).toMatchObject({ title: 'Patch me', pages: 21, rating: 3.5 });
      expect(res.headers['etag']).toMatch(ETAG);
    });

    it('answers 404 SVC_NOT_FOUND for a missing row', async () => {
      expectProblem(await request(t.server).patch('/books/999999').send({ pages: 1 }), 404, 'SVC_NOT_FOUND');
    });
  });

  describe('deleteOne (DELETE /:id)', () => {
    it('answers 204 with no body, after which the row is not found', async () => {
      const author = expectItem(await request(t.server).post('/authors').send({ name: 'Delete Me' }), 201);
      const res = await request(t.server).delete(`/authors/${String(author['id'])}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectProblem(await request(t.server).get(`/authors/${String(author['id'])}`), 404, 'SVC_NOT_FOUND');
    });

    it('answers 404 SVC_NOT_FOUND for a missing row', async () => {
      expectProblem(await request(t.server).delete('/authors/999999'), 404, 'SVC_NOT_FOUND');
    });
  });

  describe('when no route matches', () => {
    it("leaves a path outside every Svc controller to the app's own 404", async () => {
      const res = await request(t.server).get('/no-such-collection');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404 });
    });

    it('answers 404 SVC_ROUTE_NOT_FOUND for an unknown sub-path of a row', async () => {
      expectProblem(await request(t.server).get('/books/1/nothing'), 404, 'SVC_ROUTE_NOT_FOUND');
    });
  });

  describe('when the body is not a JSON object', () => {
    it('answers 400 SVC_MALFORMED_REQUEST for invalid JSON', async () => {
      const res = await request(t.server).post('/books').set('Content-Type', 'application/json').send('{"title": ');
      expectProblem(res, 400, 'SVC_MALFORMED_REQUEST');
    });

    it('answers 415 SVC_UNSUPPORTED_MEDIA_TYPE for a text/plain body', async () => {
      const res = await request(t.server).post('/books').set('Content-Type', 'text/plain').send('title=Dune');
      expectProblem(res, 415, 'SVC_UNSUPPORTED_MEDIA_TYPE');
    });

    it('answers 415 SVC_UNSUPPORTED_MEDIA_TYPE for a form body on PUT and PATCH', async () => {
      const book = await createBook({ title: 'Form' });
      expectProblem(
        await request(t.server)
          .put(`/books/${String(book['id'])}`)
          .type('form')
          .send({ title: 'x' }),
        415,
        'SVC_UNSUPPORTED_MEDIA_TYPE',
      );
      expectProblem(
        await request(t.server)
          .patch(`/books/${String(book['id'])}`)
          .type('form')
          .send({ title: 'x' }),
        415,
        'SVC_UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('answers 400 SVC_MALFORMED_REQUEST for a JSON array', async () => {
      const res = await request(t.server)
        .post('/books')
        .set('Content-Type', 'application/json')
        .send('[{"title":"Dune"}]');
      expectProblem(res, 400, 'SVC_MALFORMED_REQUEST');
    });

    it('answers 400 SVC_MALFORMED_REQUEST for JSON null', async () => {
      const res = await request(t.server).post('/books').set('Content-Type', 'application/json').send('null');
      expectProblem(res, 400, 'SVC_MALFORMED_REQUEST');
    });
  });

  describe('HTTP around the generated routes', () => {
    it('answers HEAD on findOne with the status and ETag of GET and no body', async () => {
      const book = await createBook({ title: 'Head' });
      const get = await request(t.server).get(`/books/${String(book['id'])}`);
      const head = await request(t.server).head(`/books/${String(book['id'])}`);
      expect(head.status).toBe(200);
      expect(head.headers['etag']).toBe(get.headers['etag']);
      expect(head.text ?? '').toBe('');
    });
    // OPTIONS with Allow works as HTTP says.
    it('answers OPTIONS with an Allow header listing the methods of the path', async () => {
      const res = await request(t.server).options('/books');
      expect([200, 204]).toContain(res.status);
      const allowed = String(res.headers['allow']).split(/,\s*/).sort();
      expect(allowed).toEqual(expect.arrayContaining(['GET', 'POST']));
      const item = await request(t.server).options('/books/1');
      expect(String(item.headers['allow']).split(/,\s*/)).toEqual(
        expect.arrayContaining(['GET', 'PUT', 'PATCH', 'DELETE']),
      );
    });

    it('echoes X-Request-Id as the requestId of a problem', async () => {
      const problem = expectProblem(
        await request(t.server).get('/books/999999').set('X-Request-Id', 'req-e2e-1'),
        404,
        'SVC_NOT_FOUND',
      );
      expect(problem.requestId).toBe('req-e2e-1');
    });

    it('answers 413 SVC_PAYLOAD_TOO_LARGE as problem+json to an oversized body', async () => {
      expectProblem(
        await request(t.server)
          .post('/books')
          .send({ title: 'x'.repeat(200_000) }),
        413,
        'SVC_PAYLOAD_TOO_LARGE',
      );
    });
    // application/json, so PATCH with application/merge-patch+json and a JSON object body answers
    // 400 SVC_MALFORMED_REQUEST "The body must be a JSON object of fields." Either read it or refuse it with 415.
    it('reads a +json body it accepts, or refuses it with 415, never calling a JSON object malformed', async () => {
      const book = await createBook({ title: 'Merge patch', pages: 1 });
      const res = await request(t.server)
        .patch(`/books/${String(book['id'])}`)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ pages: 2 }));
      expect([200, 415]).toContain(res.status);
    });
  });

  describe('a composite-key entity (Edition, /editions/<bookId>,<code>)', () => {
    it('creates, reads, patches and deletes by the comma-joined key', async () => {
      const res = await request(t.server).post('/editions').send({ bookId: 1, code: 'A', printRun: 500 });
      expect(expectItem(res, 201)).toEqual({ bookId: 1, code: 'A', printRun: 500 });
      expect(res.headers['etag']).toMatch(ETAG);
      expect(decodeURIComponent(res.headers['location']!)).toBe('/editions/1,A');
      expect(expectItem(await request(t.server).get(res.headers['location']!))).toEqual({
        bookId: 1,
        code: 'A',
        printRun: 500,
      });

      const read = await request(t.server).get('/editions/1,A');
      expect(expectItem(read)).toEqual({ bookId: 1, code: 'A', printRun: 500 });
      expect(read.headers['etag']).toMatch(ETAG);
      expect(expectItem(await request(t.server).patch('/editions/1,A').send({ printRun: 750 }))).toEqual({
        bookId: 1,
        code: 'A',
        printRun: 750,
      });
      expect((await request(t.server).delete('/editions/1,A')).status).toBe(204);
      expectProblem(await request(t.server).get('/editions/1,A'), 404, 'SVC_NOT_FOUND');
    });

    it('keeps rows that share one key part apart', async () => {
      await request(t.server).post('/editions').send({ bookId: 2, code: 'A', printRun: 1 }).expect(201);
      await request(t.server).post('/editions').send({ bookId: 2, code: 'B', printRun: 2 }).expect(201);
      expect(expectItem(await request(t.server).get('/editions/2,B'))['printRun']).toBe(2);
      expect(expectItem(await request(t.server).get('/editions/2,A'))['printRun']).toBe(1);
    });

    it('answers 400 naming id when a key part is missing', async () => {
      expect(namedIn(expectProblem(await request(t.server).get('/editions/1'), 400, 'SVC_QUERY_INVALID'))).toEqual([
        'id',
      ]);
    });

    it('answers 404 SVC_NOT_FOUND for a key no row has', async () => {
      expectProblem(await request(t.server).get('/editions/1,ZZ'), 404, 'SVC_NOT_FOUND');
    });
  });

  describe('a uuid-key entity (Note)', () => {
    it('generates a uuid on create and reads the row by it', async () => {
      const res = await request(t.server).post('/notes').send({ text: 'remember' });
      const note = expectItem(res, 201);
      expect(note['id']).toMatch(UUID);
      expect(note).toEqual({ id: note['id'], text: 'remember', priority: 'normal', data: null, due: null });
      expect(res.headers['location']).toBe(`/notes/${String(note['id'])}`);
      expect(expectItem(await request(t.server).get(`/notes/${String(note['id'])}`))).toEqual(note);
    });

    it('answers 404 SVC_NOT_FOUND for a well-formed uuid no row has', async () => {
      expectProblem(await request(t.server).get('/notes/00000000-0000-4000-8000-000000000000'), 404, 'SVC_NOT_FOUND');
    });

    it('answers a problem, never a 500, for a malformed uuid', async () => {
      const res = await request(t.server).get('/notes/not-a-uuid');
      expect([400, 404]).toContain(res.status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    });
  });

  describe('enum, json and date columns (Note)', () => {
    it('stores and serves them as sent', async () => {
      const data = { tags: ['a', 'b'], nested: { n: 1, ok: true, none: null }, text: 'ünïcødé "quoted"' };
      const note = expectItem(
        await request(t.server).post('/notes').send({ text: 'typed', priority: 'high', data, due: '2026-03-01' }),
        201,
      );
      expect(note).toMatchObject({ priority: 'high', data, due: '2026-03-01' });
      expect(expectItem(await request(t.server).get(`/notes/${String(note['id'])}`))).toEqual(note);
    });

    it('patches the enum and replaces the json value', async () => {
      const note = expectItem(
        await request(t.server)
          .post('/notes')
          .send({ text: 'p', data: { a: 1 } }),
        201,
      );
      const patched = expectItem(
        await request(t.server)
          .patch(`/notes/${String(note['id'])}`)
          .send({ priority: 'low', data: [1, 2, 3] }),
      );
      expect(patched).toMatchObject({ priority: 'low', data: [1, 2, 3] });
    });
  });
});
