/** Conditional requests over HTTP: ETags, If-None-Match, If-Match, and If-Match under concurrency. */
import request, { type Response } from 'supertest';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { countRows, expectItem, expectProblem, type Item } from './support/e2e-http';

const STALE = '"not-the-current-etag"';
const RACERS = 50;

describe.each(TEST_DATABASES)('Conditional requests over HTTP on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_conditional',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book),
        svcController('books-no-etag', Book, { cache: { etag: false } }),
        svcController('books-no-cache', Book, { cache: false }),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function createBook(title: string): Promise<{ book: Item; etag: string }> {
    const res = await request(t.server).post('/books').send({ title, pages: 1 });
    return { book: expectItem(res, 201), etag: res.headers['etag']! };
  }

  async function read(id: unknown, path = '/books'): Promise<Response> {
    return request(t.server).get(`${path}/${String(id)}`);
  }

  async function storedRow(id: unknown): Promise<Book> {
    return (await t.dataSource.getRepository(Book).findOne({ where: { id: id as number }, withDeleted: true }))!;
  }

  describe('the ETag', () => {
    it('is the same on the create response and on a read of the row', async () => {
      const { book, etag } = await createBook('CR same');
      expect(etag).toMatch(/^"[^"]+"$/);
      expect((await read(book['id'])).headers['etag']).toBe(etag);
    });

    it('changes after a write, and the write answers the ETag a read then returns', async () => {
      const { book, etag } = await createBook('CR change');
      const patched = await request(t.server)
        .patch(`/books/${String(book['id'])}`)
        .send({ pages: 2 });
      expect(patched.status).toBe(200);
      expect(patched.headers['etag']).not.toBe(etag);
      expect((await read(book['id'])).headers['etag']).toBe(patched.headers['etag']);

      const put = await request(t.server)
        .put(`/books/${String(book['id'])}`)
        .send({ title: 'CR change 2' });
      expect(put.status).toBe(200);
      expect(put.headers['etag']).not.toBe(patched.headers['etag']);
      expect((await read(book['id'])).headers['etag']).toBe(put.headers['etag']);
    });

    it('on restore equals the one a read then returns', async () => {
      const { book } = await createBook('CR restore etag');
      await request(t.server)
        .delete(`/books/${String(book['id'])}`)
        .expect(204);
      const restored = await request(t.server).patch(`/books/${String(book['id'])}/restore`);
      expect(restored.status).toBe(200);
      expect((await read(book['id'])).headers['etag']).toBe(restored.headers['etag']);
    });
  });

  describe('If-None-Match on findOne', () => {
    it('answers 304 with no body when it matches', async () => {
      const { book, etag } = await createBook('CR inm');
      const res = await request(t.server)
        .get(`/books/${String(book['id'])}`)
        .set('If-None-Match', etag);
      expect(res.status).toBe(304);
      expect(res.text ?? '').toBe('');
      expect(res.headers['etag']).toBe(etag);
    });

    it('answers 304 to *', async () => {
      const { book } = await createBook('CR inm star');
      expect(
        (
          await request(t.server)
            .get(`/books/${String(book['id'])}`)
            .set('If-None-Match', '*')
        ).status,
      ).toBe(304);
    });

    it('compares weakly: W/ plus the ETag matches', async () => {
      const { book, etag } = await createBook('CR inm weak');
      expect(
        (
          await request(t.server)
            .get(`/books/${String(book['id'])}`)
            .set('If-None-Match', `W/${etag}`)
        ).status,
      ).toBe(304);
    });

    it('matches any tag of a list', async () => {
      const { book, etag } = await createBook('CR inm list');
      expect(
        (
          await request(t.server)
            .get(`/books/${String(book['id'])}`)
            .set('If-None-Match', `${STALE}, ${etag}`)
        ).status,
      ).toBe(304);
    });

    it('answers 200 with the body when it does not match', async () => {
      const { book } = await createBook('CR inm miss');
      const res = await request(t.server)
        .get(`/books/${String(book['id'])}`)
        .set('If-None-Match', STALE);
      expect(expectItem(res)['title']).toBe('CR inm miss');
    });

    it('answers 404 for a missing row, not 304 to *', async () => {
      expectProblem(await request(t.server).get('/books/999999').set('If-None-Match', '*'), 404, 'SVC_NOT_FOUND');
    });
  });

  describe('If-Match on writes', () => {
    it('lets PUT and PATCH through when it matches, and on *', async () => {
      const { book, etag } = await createBook('CR im pass');
      const put = await request(t.server)
        .put(`/books/${String(book['id'])}`)
        .set('If-Match', etag)
        .send({ title: 'CR im pass 2' });
      expect(put.status).toBe(200);
      const patch = await request(t.server)
        .patch(`/books/${String(book['id'])}`)
        .set('If-Match', '*')
        .send({ pages: 9 });
      expect(expectItem(patch)).toMatchObject({ title: 'CR im pass 2', pages: 9 });
    });

    it('answers 412 SVC_PRECONDITION_FAILED on PUT with a stale tag, leaving the row unchanged', async () => {
      const { book } = await createBook('CR im put');
      expectProblem(
        await request(t.server)
          .put(`/books/${String(book['id'])}`)
          .set('If-Match', STALE)
          .send({ title: 'changed' }),
        412,
        'SVC_PRECONDITION_FAILED',
      );
      expect(expectItem(await read(book['id']))).toEqual(book);
    });

    it('answers 412 on PATCH with a stale tag, leaving the row unchanged', async () => {
      const { book } = await createBook('CR im patch');
      expectProblem(
        await request(t.server)
          .patch(`/books/${String(book['id'])}`)
          .set('If-Match', STALE)
          .send({ pages: 5 }),
        412,
        'SVC_PRECONDITION_FAILED',
      );
      expect(expectItem(await read(book['id']))).toEqual(book);
    });

    it('compares strongly: a weak tag never matches', async () => {
      const { book, etag } = await createBook('CR im weak');
      expectProblem(
        await request(t.server)
          .patch(`/books/${String(book['id'])}`)
          .set('If-Match', `W/${etag}`)
          .send({ pages: 5 }),
        412,
        'SVC_PRECONDITION_FAILED',
      );
    });

    it('answers 412 after another write changed the row', async () => {
      const { book, etag } = await createBook('CR im lost update');
      await request(t.server)
        .patch(`/books/${String(book['id'])}`)
        .set('If-Match', etag)
        .send({ pages: 2 })
        .expect(200);
      expectProblem(
        await request(t.server)
          .patch(`/books/${String(book['id'])}`)
          .set('If-Match', etag)
          .send({ pages: 3 }),
        412,
        'SVC_PRECONDITION_FAILED',
      );
      expect((await storedRow(book['id'])).pages).toBe(2);
    });

    it('answers 412 on DELETE with a stale tag, leaving the row live', async () => {
      const { book, etag } = await createBook('CR im delete');
      expectProblem(
        await request(t.server)
          .delete(`/books/${String(book['id'])}`)
          .set('If-Match', STALE),
        412,
        'SVC_PRECONDITION_FAILED',
      );
      expect((await storedRow(book['id'])).deletedAt).toBeNull();
      expect(
        (
          await request(t.server)
            .delete(`/books/${String(book['id'])}`)
            .set('If-Match', etag)
        ).status,
      ).toBe(204);
    });

    it('answers 412 on restore with a stale tag, leaving the row deleted', async () => {
      const { book } = await createBook('CR im restore');
      await request(t.server)
        .delete(`/books/${String(book['id'])}`)
        .expect(204);
      expectProblem(
        await request(t.server)
          .patch(`/books/${String(book['id'])}/restore`)
          .set('If-Match', STALE),
        412,
        'SVC_PRECONDITION_FAILED',
      );
      expect((await storedRow(book['id'])).deletedAt).not.toBeNull();
    });

    it('answers 412 on purge with a stale tag, keeping the row', async () => {
      const { book } = await createBook('CR im purge');
      await request(t.server)
        .delete(`/books/${String(book['id'])}`)
        .expect(204);
      const before = await countRows(t.dataSource, Book);
      expectProblem(
        await request(t.server)
          .delete(`/books/${String(book['id'])}/purge`)
          .set('If-Match', STALE),
        412,
        'SVC_PRECONDITION_FAILED',
      );
      expect(await countRows(t.dataSource, Book)).toBe(before);
    });

    it('answers 412 SVC_PRECONDITION_UNSUPPORTED on POST, writing nothing', async () => {
      const before = await countRows(t.dataSource, Book);
      expectProblem(
        await request(t.server).post('/books').set('If-Match', '*').send({ title: 'CR im post' }),
        412,
        'SVC_PRECONDITION_UNSUPPORTED',
      );
      expect(await countRows(t.dataSource, Book)).toBe(before);
    });
  });

  describe.each([
    ['cache: { etag: false }', '/books-no-etag'],
    ['cache: false', '/books-no-cache'],
  ])('with %s', (_setting, path) => {
    it('sends no ETag on reads or writes', async () => {
      const created = await request(t.server).post(path).send({ title: 'CR off' });
      expect(created.status).toBe(201);
      expect(created.headers['etag']).toBeUndefined();
      const id = String((created.body as Item)['id']);
      expect((await read(id, path)).headers['etag']).toBeUndefined();
      expect((await request(t.server).patch(`${path}/${id}`).send({ pages: 4 })).headers['etag']).toBeUndefined();
    });

    it('ignores If-Match on writes', async () => {
      const created = expectItem(
        await request(t.server).post(path).set('If-Match', STALE).send({ title: 'CR off ignored' }),
        201,
      );
      const id = String(created['id']);
      expect(
        expectItem(await request(t.server).put(`${path}/${id}`).set('If-Match', STALE).send({ title: 'CR off put' }))[
          'title'
        ],
      ).toBe('CR off put');
      expect(
        expectItem(await request(t.server).patch(`${path}/${id}`).set('If-Match', STALE).send({ pages: 8 }))['pages'],
      ).toBe(8);
      expect((await request(t.server).delete(`${path}/${id}`).set('If-Match', STALE)).status).toBe(204);
    });

    it('ignores If-None-Match on reads, serving a body to a tag that does not match', async () => {
      const created = expectItem(await request(t.server).post(path).send({ title: 'CR off inm miss' }), 201);
      expect(
        expectItem(
          await request(t.server)
            .get(`${path}/${String(created['id'])}`)
            .set('If-None-Match', STALE),
        )['title'],
      ).toBe('CR off inm miss');
    });
    // response.json, whose freshness check (req.fresh) answers 304 to `If-None-Match: *` on its own.
    it('ignores If-None-Match: * on reads, serving the body', async () => {
      const created = expectItem(await request(t.server).post(path).send({ title: 'CR off inm star' }), 201);
      expect(
        expectItem(
          await request(t.server)
            .get(`${path}/${String(created['id'])}`)
            .set('If-None-Match', '*'),
        )['title'],
      ).toBe('CR off inm star');
    });
  });

  describe(`${RACERS} concurrent writers sending the same If-Match`, () => {
    async function race(method: 'put' | 'patch'): Promise<void> {
      const { book, etag } = await createBook(`CR race ${method}`);
      const bodies = Array.from({ length: RACERS }, (_, i) =>
        method === 'put' ? { title: `CR ${method} winner ${i}`, pages: i } : { pages: 1000 + i },
      );
      const responses = await Promise.all(
        bodies.map(async (body) => {
          const req = request(t.server);
          const call =
            method === 'put' ? req.put(`/books/${String(book['id'])}`) : req.patch(`/books/${String(book['id'])}`);
          return call.set('If-Match', etag).send(body);
        }),
      );
      const statuses = responses.map((res) => res.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 412)).toHaveLength(RACERS - 1);
      for (const res of responses.filter((r) => r.status === 412))
        expect((res.body as { code: string }).code).toBe('SVC_PRECONDITION_FAILED');
      const winner = responses.find((res) => res.status === 200)!;
      const final = await read(book['id']);
      expect(expectItem(final)).toEqual(winner.body);
      expect(final.headers['etag']).toBe(winner.headers['etag']);
    }

    it('lets exactly one PUT win; the row is the winner', () => race('put'));

    it('lets exactly one PATCH win; the row is the winner', () => race('patch'));
  });
});
