/** The catalogue over REST: what anyone may read, what only an editor may write, and how mistakes are answered. */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource, type Repository } from 'typeorm';
import { Book } from '../src/book.entity';
import { expectProblem } from './expect-problem';
import { bearer, startApp } from './test-app';

describe('books', () => {
  let app: INestApplication;
  let books: Repository<Book>;

  beforeAll(async () => {
    app = await startApp('books_e2e');
    books = app.get(DataSource).getRepository(Book);
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(async () => {
    // Every test starts from the same rows, written straight to the database: no policy, no HTTP.
    await books.clear();
    await books.save([
      { title: 'Dune', pages: 412 },
      { title: 'Solaris', pages: 204 },
      { title: 'The Dispossessed', pages: 387 },
    ]);
  });

  describe('reading', () => {
    it('lists the books that match a filter, sorted, to anyone', async () => {
      const response = await request(app.getHttpServer())
        .get('/books')
        .query({ 'filter[pages][gte]': 300, sort: '-pages' })
        .expect(200);
      expect(response.body).toMatchObject({ total: 2, items: [{ title: 'Dune' }, { title: 'The Dispossessed' }] });
    });

    it('answers a book that does not exist with 404 SVC_NOT_FOUND', async () => {
      const response = await request(app.getHttpServer()).get('/books/999');
      expectProblem(response, 404, 'SVC_NOT_FOUND');
    });
  });

  describe('mistakes', () => {
    it('names each bad query parameter in errors[].param', async () => {
      const response = await request(app.getHttpServer())
        .get('/books')
        .query({ 'filter[pagez][gte]': 1, sort: 'titel' });
      const problem = expectProblem(response, 400, 'SVC_QUERY_INVALID');
      expect(problem.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ param: 'filter[pagez]', code: 'field_not_filterable' }),
          expect.objectContaining({ param: 'sort', code: 'field_not_sortable' }),
        ]),
      );
    });

    it('names each bad body field in errors[].field, and writes nothing', async () => {
      const response = await request(app.getHttpServer())
        .post('/books')
        .set(bearer('editor'))
        .send({ title: 'Ubik', pages: 'many', rating: 5 });
      const problem = expectProblem(response, 400, 'SVC_VALIDATION_FAILED');
      expect(problem.errors).toEqual([
        expect.objectContaining({ field: 'pages', code: 'invalid_value' }),
        expect.objectContaining({ field: 'rating', code: 'not_writable' }),
      ]);
      expect(await books.count()).toBe(3);
    });
  });

  describe('the policy', () => {
    it('refuses a write without a token, and from a reader, with 403 SVC_FORBIDDEN', async () => {
      const server = app.getHttpServer();
      expectProblem(await request(server).post('/books').send({ title: 'Ubik' }), 403, 'SVC_FORBIDDEN');
      const asReader = await request(server).post('/books').set(bearer('reader')).send({ title: 'Ubik' });
      expectProblem(asReader, 403, 'SVC_FORBIDDEN');
      expect(await books.count()).toBe(3);
    });

    it("lets an editor's write through", async () => {
      const response = await request(app.getHttpServer())
        .post('/books')
        .set(bearer('editor'))
        .send({ title: 'Ubik', pages: 202 })
        .expect(201);
      expect(response.body).toMatchObject({ id: expect.any(Number), title: 'Ubik', pages: 202 });
      expect(await books.findOneBy({ title: 'Ubik' })).not.toBeNull();
    });
  });
});
