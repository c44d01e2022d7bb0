/** Soft delete over HTTP: hiding, restoring and purging rows, the deleted-row views, and turning it off. */
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES, Note } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { countRows, expectItem, expectList, expectProblem, namedIn, pluck, type Item } from './support/e2e-http';

describe.each(TEST_DATABASES)('Soft delete over HTTP on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_soft_delete',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book),
        svcController('hard-books', Book, { delete: { strategy: 'hard' } }),
        svcController('all-books', Book, { delete: false }),
        svcController('peek-books', Book, { operations: { findMany: true, findOne: { delete: false } } }),
        svcController('notes', Note),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function createBook(title: string): Promise<Item> {
    return expectItem(await request(t.server).post('/books').send({ title }), 201);
  }

  async function deleted(title: string): Promise<Item> {
    const book = await createBook(title);
    expect((await request(t.server).delete(`/books/${String(book['id'])}`)).status).toBe(204);
    return book;
  }

  async function titles(path: string, prefix: string, extra = ''): Promise<string[]> {
    const res = await request(t.server).get(
      `${path}?filter[title][startsWith]=${encodeURIComponent(prefix)}&sort=title${extra}`,
    );
    return pluck<string>(expectList(res).items, 'title');
  }

  async function storedRow(id: unknown): Promise<Book | null> {
    return t.dataSource.getRepository(Book).findOne({ where: { id: id as number }, withDeleted: true });
  }

  describe('deleteOne on a soft-delete entity (Book)', () => {
    it('answers 204 and keeps the row with its marker set', async () => {
      const book = await deleted('SD keep');
      const row = await storedRow(book['id']);
      expect(row).not.toBeNull();
      expect(row!.deletedAt).not.toBeNull();
    });

    it('hides the row from the list and from findOne (404 SVC_NOT_FOUND)', async () => {
      await createBook('SD hide live');
      const gone = await deleted('SD hide gone');
      expect(await titles('/books', 'SD hide')).toEqual(['SD hide live']);
      expectProblem(await request(t.server).get(`/books/${String(gone['id'])}`), 404, 'SVC_NOT_FOUND');
    });

    it('answers 404 to PUT and PATCH of a deleted row', async () => {
      const gone = await deleted('SD no writes');
      expectProblem(
        await request(t.server)
          .put(`/books/${String(gone['id'])}`)
          .send({ title: 'x' }),
        404,
        'SVC_NOT_FOUND',
      );
      expectProblem(
        await request(t.server)
          .patch(`/books/${String(gone['id'])}`)
          .send({ title: 'x' }),
        404,
        'SVC_NOT_FOUND',
      );
      expect((await storedRow(gone['id']))!.title).toBe('SD no writes');
    });

    it('answers 409 SVC_ALREADY_DELETED to a second delete', async () => {
      const gone = await deleted('SD twice');
      const before = await storedRow(gone['id']);
      expectProblem(await request(t.server).delete(`/books/${String(gone['id'])}`), 409, 'SVC_ALREADY_DELETED');
      expect((await storedRow(gone['id']))!.deletedAt).toEqual(before!.deletedAt);
    });
  });

  describe('restoreOne (PATCH /books/:id/restore)', () => {
    it('answers 200 with the live item, which reads and lists again', async () => {
      const gone = await deleted('SD restore');
      const res = await request(t.server).patch(`/books/${String(gone['id'])}/restore`);
      const restored = expectItem(res);
      expect(restored).toMatchObject({ id: gone['id'], title: 'SD restore', deletedAt: null });
      expect(res.headers['etag']).toMatch(/^"[^"]+"$/);
      expect(expectItem(await request(t.server).get(`/books/${String(gone['id'])}`))['deletedAt']).toBeNull();
      expect(await titles('/books', 'SD restore')).toEqual(['SD restore']);
    });

    it('answers 409 SVC_NOT_DELETED for a live row', async () => {
      const live = await createBook('SD restore live');
      expectProblem(await request(t.server).patch(`/books/${String(live['id'])}/restore`), 409, 'SVC_NOT_DELETED');
    });

    it('answers 404 SVC_NOT_FOUND for a missing row', async () => {
      expectProblem(await request(t.server).patch('/books/999999/restore'), 404, 'SVC_NOT_FOUND');
    });
  });

  describe('purgeOne (DELETE /books/:id/purge)', () => {
    it('answers 409 SVC_NOT_DELETED for a live row and keeps it', async () => {
      const live = await createBook('SD purge live');
      expectProblem(await request(t.server).delete(`/books/${String(live['id'])}/purge`), 409, 'SVC_NOT_DELETED');
      expect(expectItem(await request(t.server).get(`/books/${String(live['id'])}`))['title']).toBe('SD purge live');
    });

    it('answers 204 for a deleted row and removes it for good', async () => {
      const gone = await deleted('SD purge gone');
      const before = await countRows(t.dataSource, Book);
      const res = await request(t.server).delete(`/books/${String(gone['id'])}/purge`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await countRows(t.dataSource, Book)).toBe(before - 1);
      expect(await titles('/books', 'SD purge gone', '&withDeleted=true')).toEqual([]);
      expectProblem(await request(t.server).patch(`/books/${String(gone['id'])}/restore`), 404, 'SVC_NOT_FOUND');
    });

    it('answers 404 SVC_NOT_FOUND for a missing row', async () => {
      expectProblem(await request(t.server).delete('/books/999999/purge'), 404, 'SVC_NOT_FOUND');
    });
  });

  describe('the deleted-row views of findMany', () => {
    beforeAll(async () => {
      await createBook('SD view a live');
      await deleted('SD view b gone');
    });

    it('withDeleted=true lists live and deleted rows', async () => {
      expect(await titles('/books', 'SD view', '&withDeleted=true')).toEqual(['SD view a live', 'SD view b gone']);
    });

    it('onlyDeleted=true lists only deleted rows', async () => {
      expect(await titles('/books', 'SD view', '&onlyDeleted=true')).toEqual(['SD view b gone']);
    });

    it('withDeleted=false and onlyDeleted=false list only live rows', async () => {
      expect(await titles('/books', 'SD view', '&withDeleted=false')).toEqual(['SD view a live']);
      expect(await titles('/books', 'SD view', '&onlyDeleted=false')).toEqual(['SD view a live']);
    });

    it('counts the view in total', async () => {
      const res = await request(t.server).get('/books?filter[title][startsWith]=SD%20view&withDeleted=true');
      expect(expectList(res).total).toBe(2);
    });

    it('answers 400 SVC_QUERY_INVALID naming the flag for a value other than true or false', async () => {
      const problem = expectProblem(await request(t.server).get('/books?withDeleted=yes'), 400, 'SVC_QUERY_INVALID');
      expect(namedIn(problem)).toEqual(['withDeleted']);
    });

    it('answers 400 when both views are asked for', async () => {
      const res = await request(t.server).get('/books?withDeleted=true&onlyDeleted=true');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    });
  });

  describe("delete: { strategy: 'hard' } on Book", () => {
    it('DELETE removes the row from the table', async () => {
      const book = await createBook('SD hard');
      expect((await request(t.server).delete(`/hard-books/${String(book['id'])}`)).status).toBe(204);
      expect(await storedRow(book['id'])).toBeNull();
    });

    it('has no restore or purge route: 404 as problem+json', async () => {
      const book = await createBook('SD hard routes');
      expectProblem(
        await request(t.server).patch(`/hard-books/${String(book['id'])}/restore`),
        404,
        'SVC_ROUTE_NOT_FOUND',
      );
      expectProblem(
        await request(t.server).delete(`/hard-books/${String(book['id'])}/purge`),
        404,
        'SVC_ROUTE_NOT_FOUND',
      );
      expect(await storedRow(book['id'])).not.toBeNull();
    });
  });

  describe('delete: false on Book', () => {
    it('reads show soft-deleted rows like live ones', async () => {
      const gone = await deleted('SD off gone');
      await createBook('SD off live');
      expect(await titles('/all-books', 'SD off')).toEqual(['SD off gone', 'SD off live']);
      const read = expectItem(await request(t.server).get(`/all-books/${String(gone['id'])}`));
      expect(read['title']).toBe('SD off gone');
      expect(read['deletedAt']).not.toBeNull();
    });

    it('has no restore or purge route', async () => {
      const gone = await deleted('SD off routes');
      expectProblem(
        await request(t.server).patch(`/all-books/${String(gone['id'])}/restore`),
        404,
        'SVC_ROUTE_NOT_FOUND',
      );
      expectProblem(
        await request(t.server).delete(`/all-books/${String(gone['id'])}/purge`),
        404,
        'SVC_ROUTE_NOT_FOUND',
      );
    });
  });

  describe('delete: false at one read operation (operations.findOne.delete)', () => {
    it('shows a soft-deleted row to that operation only', async () => {
      const gone = await deleted('SD peek gone');
      expect(expectItem(await request(t.server).get(`/peek-books/${String(gone['id'])}`))['title']).toBe(
        'SD peek gone',
      );
      expect(await titles('/peek-books', 'SD peek')).toEqual([]);
    });
  });

  describe('a hard-delete entity (Note)', () => {
    it('DELETE removes the row, and restore and purge are 404 as problem+json', async () => {
      const note = expectItem(await request(t.server).post('/notes').send({ text: 'hard' }), 201);
      expectProblem(await request(t.server).patch(`/notes/${String(note['id'])}/restore`), 404, 'SVC_ROUTE_NOT_FOUND');
      expectProblem(await request(t.server).delete(`/notes/${String(note['id'])}/purge`), 404, 'SVC_ROUTE_NOT_FOUND');
      expect((await request(t.server).delete(`/notes/${String(note['id'])}`)).status).toBe(204);
      expect(await t.dataSource.getRepository(Note).countBy({ id: note['id'] as string })).toBe(0);
    });

    it('answers 400 SVC_QUERY_UNSUPPORTED_PARAM to withDeleted', async () => {
      const problem = expectProblem(
        await request(t.server).get('/notes?withDeleted=true'),
        400,
        'SVC_QUERY_UNSUPPORTED_PARAM',
      );
      expect(namedIn(problem)).toEqual(['withDeleted']);
    });
  });
});
