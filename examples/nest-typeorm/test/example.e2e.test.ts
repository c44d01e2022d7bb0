/** The reference app as a user meets it: seeded on first start, served over the generated routes. */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../src/app.module';

type Server = Parameters<typeof request>[0];

describe('examples/nest-typeorm', () => {
  let app: INestApplication;
  let server: Server;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot({ databaseUrl: ':memory:' })],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    server = app.getHttpServer() as Server;
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('on first start', () => {
    it('seeds authors, about thirty books, tags and reviews', async () => {
      const authors = await request(server).get('/authors').expect(200);
      const books = await request(server).get('/books').expect(200);
      const tags = await request(server).get('/tags').expect(200);
      const reviews = await request(server).get('/reviews').expect(200);
      expect(authors.body.total).toBeGreaterThanOrEqual(5);
      expect(books.body.total).toBe(30);
      expect(tags.body.total).toBeGreaterThan(0);
      expect(reviews.body.total).toBeGreaterThan(0);
    });
  });

  describe('GET /books', () => {
    it('pages by the configured default limit, sorted by title', async () => {
      const response = await request(server).get('/books').expect(200);
      expect(response.body).toMatchObject({ limit: 10, offset: 0, total: 30 });
      const titles = (response.body.items as { title: string }[]).map((book) => book.title);
      expect(titles).toHaveLength(10);
      expect(titles).toEqual([...titles].sort());
    });

    it('filters with an allowed operator', async () => {
      const response = await request(server)
        .get('/books')
        .query({ 'filter[title][startsWith]': 'The', limit: 50 })
        .expect(200);
      const titles = (response.body.items as { title: string }[]).map((book) => book.title);
      expect(titles.length).toBeGreaterThan(0);
      for (const title of titles) expect(title.startsWith('The')).toBe(true);
    });

    it('answers 400 SVC_QUERY_INVALID for an operator the field does not take', async () => {
      const response = await request(server).get('/books').query({ 'filter[title][endsWith]': 'x' }).expect(400);
      expect(response.body.code).toBe('SVC_QUERY_INVALID');
    });
  });

  describe('GET /books/:id', () => {
    it('serves the book with an ETag', async () => {
      const response = await request(server).get('/books/1').expect(200);
      expect(response.body).toMatchObject({ id: 1, title: 'A Wizard of Earthsea' });
      expect(response.headers['etag']).toMatch(/^"/);
    });

    it('answers 404 for a missing book', async () => {
      await request(server).get('/books/99999').expect(404);
    });
  });

  describe('a book through its life: create, patch, delete, restore', () => {
    it('creates with 201 and a Location, patches, soft-deletes and restores', async () => {
      const created = await request(server)
        .post('/books')
        .send({ title: 'The Word for World Is Forest', pages: 189, authorId: 1 })
        .expect(201);
      const id = created.body.id as number;
      expect(created.headers['location']).toBe(`/books/${id}`);
      expect(created.headers['etag']).toBeDefined();

      const patched = await request(server).patch(`/books/${id}`).send({ pages: 190, published: true }).expect(200);
      expect(patched.body).toMatchObject({ id, pages: 190, published: true, title: 'The Word for World Is Forest' });

      await request(server).delete(`/books/${id}`).expect(204);
      await request(server).get(`/books/${id}`).expect(404);

      const restored = await request(server).patch(`/books/${id}/restore`).expect(200);
      expect(restored.body).toMatchObject({ id, deletedAt: null });
      await request(server).get(`/books/${id}`).expect(200);
    });

    it('answers 400 for a field that is not writable', async () => {
      const response = await request(server).post('/books').send({ title: 'Sneaky', colour: 'red' }).expect(400);
      expect(response.body.code).toBe('SVC_VALIDATION_FAILED');
    });
  });
});
